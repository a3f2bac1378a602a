import {
  type ChannelCode,
  channelDelivery,
  channels,
  DEFAULT_APP,
  platforms,
  storeLinkFor,
} from '@appdesk/contract/constants';
import type { ApiInput, ApiOutput } from '@appdesk/contract/types';
import { Alert, Button, Form, Input, InputNumber, Select, Slider, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { callOk, upload } from '../../../api/request';
import { AppSelect, useNewRecordApp } from '../../../components/admin/appField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { UploadProgress } from '../../../components/admin/UploadProgress';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { formatSize } from '../../../components/size';
import { useApps } from '../../../state/apps';
import { lacking, useGrants } from '../../../state/grants';

type Make = ApiInput<'/api/version/make'>;
type FileV = ApiOutput<'/api/files/update'>['file']['fileV'];
type Parsed = ApiOutput<'/api/version/parse'>;

interface Values {
  app: Make['app'];
  platform: Make['platform'];
  channel: Make['channel'];
  versionName: string;
  versionCode: number | null;
  minVersionCode: number;
  changelog: string;
  storeUrl: string;
  rollout: number;
  promptTimes: number;
  promptIntervalDays: number;
  ignorable: boolean;
  reviewHold: boolean;
  published: boolean;
}

const blank: Values = {
  app: DEFAULT_APP,
  platform: 'android',
  channel: 'huawei',
  versionName: '',
  versionCode: null,
  minVersionCode: 0,
  changelog: '',
  storeUrl: '',
  rollout: 100,
  promptTimes: 0,
  promptIntervalDays: 1,
  ignorable: true,
  reviewHold: false,
  published: false,
};

export const channelOptions = channels.map((c) => ({ value: c.value, label: `${c.label}（${c.value}）` }));

/** The package a release will ship, as uploaded (or as already attached). */
interface Attached {
  fileId: number;
  name: string;
  size: number;
  sha256: string;
  parsed?: Parsed | null;
}

/** 新建版本 / 编辑版本: the release's fields, its package (read to pre-fill the form) and prompt rules. */
export function VersionEditor({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const id = typeof target === 'number' ? target : null;
  const detail = useApiQuery('/api/version/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const make = useApiAction('/api/version/make');
  const update = useApiAction('/api/version/update');
  const release = id !== null ? detail.data?.version : undefined;
  const [attached, setAttached] = useState<Attached | null | undefined>(undefined);
  const channel = (Form.useWatch('channel', form) ?? 'huawei') as ChannelCode;
  const platform = Form.useWatch('platform', form) ?? 'android';
  const app = Form.useWatch('app', form) ?? DEFAULT_APP;
  const { nameOf } = useApps();
  // A new release is made in the app the console works in (the header's switcher).
  const currentApp = useNewRecordApp();
  // The app's packages and channels as 应用管理 has them (the server checks packages against the same).
  const { canCall } = useGrants();
  // Without 应用管理 · 查看 the app's packages and channels are not read: the server still checks them.
  const apps = useApiQuery(
    '/api/apps/fetch/page',
    { search: app, size: 100 },
    { enabled: target !== null && canCall('/api/apps/fetch/page') },
  );
  const canUpload = canCall('/api/files/update');
  const appView = apps.data?.list.find((a) => a.code === app);
  const packageName = (platform === 'ios' ? appView?.iosBundleId : appView?.androidPackage) ?? '';
  const shipped = appView?.channels.find((c) => c.channel === channel);
  const defaultLink = shipped?.storeLink || (packageName ? storeLinkFor(channel, packageName) : '');
  const delivery = channelDelivery[channel];

  useEffect(() => {
    if (target === null) return;
    setAttached(undefined);
    if (release) {
      form.setFieldsValue({ ...blank, ...release } as unknown as Values);
    } else {
      form.setFieldsValue({ ...blank, app: currentApp });
    }
  }, [target, release, form, currentApp]);

  const current: Attached | null =
    attached !== undefined
      ? attached
      : release?.package
        ? {
            fileId: release.package.fileId,
            name: release.package.name,
            size: release.package.size,
            sha256: release.package.sha256,
          }
        : null;

  const onUploaded = async (fileV: FileV) => {
    const next: Attached = { fileId: fileV.id, name: fileV.name, size: fileV.size, sha256: fileV.sha256 };
    setAttached(next);
    const parsed = await callOk('/api/version/parse', { fileId: fileV.id, app }).catch(() => null);
    setAttached({ ...next, parsed });
    if (parsed?.packageType === 'apk' && parsed.belongsToApp) {
      form.setFieldsValue({
        platform: 'android',
        ...(parsed.versionName ? { versionName: parsed.versionName } : {}),
        ...(parsed.versionCode ? { versionCode: parsed.versionCode } : {}),
      });
    }
    if (parsed?.packageType === 'ipa') form.setFieldsValue({ platform: 'ios', channel: 'appstore' });
  };

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || values.versionCode === null) return;
    const fileId = current?.fileId ?? null;
    if (id === null) {
      make.mutate({ ...values, versionCode: values.versionCode, fileId }, { onSuccess: onClose });
      return;
    }
    if (!release) return;
    const changes: Record<string, unknown> = {};
    for (const key of [
      'versionName',
      'versionCode',
      'minVersionCode',
      'changelog',
      'storeUrl',
      'rollout',
      'promptTimes',
      'promptIntervalDays',
      'ignorable',
      'reviewHold',
    ] as const) {
      if (values[key] !== release[key]) changes[key] = values[key];
    }
    if (fileId !== (release.package?.fileId ?? null)) changes.fileId = fileId;
    if (Object.keys(changes).length === 0) return onClose();
    update.mutate({ id, ...changes } as ApiInput<'/api/version/update'>, { onSuccess: onClose });
  };

  const parsed = current?.parsed;
  return (
    <EditorDrawer
      title={id === null ? '新建版本' : '编辑版本'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={id !== null && !release}
      width={720}
    >
      <Form
        form={form}
        name="release"
        layout="vertical"
        autoComplete="off"
        initialValues={blank}
        className="version-form"
      >
        <div className="version-grid">
          <Form.Item label="应用" name="app">
            <AppSelect disabled={id !== null} />
          </Form.Item>
          <Form.Item label="平台" name="platform">
            <Select options={platforms.map((p) => ({ value: p.value, label: p.label }))} disabled={id !== null} />
          </Form.Item>
          <Form.Item label="渠道" name="channel" className="version-grid-wide">
            <Select
              options={channelOptions}
              showSearch={{ optionFilterProp: 'label' }}
              disabled={id !== null}
              onChange={(value: ChannelCode) =>
                form.setFieldValue('reviewHold', channelDelivery[value].holdDuringReview === true)
              }
            />
          </Form.Item>
        </div>
        <Typography.Paragraph type="secondary" className="version-delivery">
          {delivery.delivery === 'direct'
            ? '官网渠道：App 直接下载下面上传的安装包。'
            : `商店渠道：App 打开商店链接更新${delivery.holdDuringReview ? '；该商店审核期间不允许提示更新，新版本默认“审核中暂停提示”' : ''}。`}
        </Typography.Paragraph>
        {appView && !shipped ? (
          <Alert
            type="warning"
            showIcon
            className="version-delivery"
            title={`应用管理中${nameOf(app)}没有上架这个渠道：该渠道的用户检查更新时按官网渠道处理。`}
          />
        ) : null}

        <Form.Item
          label="安装包"
          extra={
            canUpload
              ? 'APK、AAB 或 IPA；上传 APK 后自动读出包名、版本名和版本号'
              : `上传安装包${lacking('/api/files/update')}`
          }
        >
          <UploadProgress<FileV>
            disabled={!canUpload}
            buttonText={current ? '更换安装包' : '上传安装包'}
            accept=".apk,.aab,.ipa"
            progressLabel="安装包上传进度"
            send={async (file, onProgress, signal) => {
              const body = await upload<{ code: number; file?: { fileV: FileV } }>('/api/files/update', {
                files: { file },
                onProgress,
                signal,
              });
              return body.code === 200 && body.file ? body.file.fileV : null;
            }}
            onDone={(fileV) => void onUploaded(fileV)}
          />
          {current ? (
            <div className="version-package">
              {parsed?.icon ? <img src={parsed.icon} alt="应用图标" width={40} height={40} /> : null}
              <div>
                <div>
                  {current.name} · {formatSize(current.size)}
                </div>
                <Typography.Text type="secondary" className="version-hash">
                  SHA-256 {current.sha256}
                </Typography.Text>
                {parsed?.packageName ? (
                  <div className="version-parsed">
                    包名 {parsed.packageName} · 版本 {parsed.versionName}（{parsed.versionCode}）
                  </div>
                ) : null}
              </div>
              <Button size="small" onClick={() => setAttached(null)}>
                移除
              </Button>
            </div>
          ) : null}
          {parsed && !parsed.belongsToApp ? (
            <Alert
              type="error"
              showIcon
              title={`安装包的包名 ${parsed.packageName} 不属于这个应用（应为 ${parsed.expectedPackage}），保存时会被拒绝`}
            />
          ) : null}
        </Form.Item>

        <div className="version-grid">
          <Form.Item label="版本名" name="versionName" rules={formRules(rules.versionName)}>
            <Input placeholder="例如 2.0.0" {...inputLimits(rules.versionName)} />
          </Form.Item>
          <Form.Item label="版本号" name="versionCode" rules={formRules(rules.versionCode)}>
            <InputNumber<number> precision={0} controls={false} style={{ width: '100%' }} placeholder="例如 200" />
          </Form.Item>
          <Form.Item
            label="最低支持版本号"
            name="minVersionCode"
            rules={formRules(rules.minVersionCode)}
            extra="低于它的用户会被强制更新"
          >
            <InputNumber<number> precision={0} controls={false} style={{ width: '100%' }} />
          </Form.Item>
        </div>
        <Form.Item label="更新说明" name="changelog" rules={formRules(rules.changelog)}>
          <Input.TextArea rows={4} placeholder={'1. 新功能……\n2. 修复……'} showCount {...inputLimits(rules.changelog)} />
        </Form.Item>
        {delivery.delivery === 'store' ? (
          <Form.Item
            label="商店链接"
            name="storeUrl"
            rules={formRules(rules.storeUrl)}
            extra={
              defaultLink
                ? `留空则使用 ${defaultLink}`
                : '请填写 App Store 地址，例如 itms-apps://apps.apple.com/app/id123456789'
            }
          >
            <Input placeholder={defaultLink || 'itms-apps://apps.apple.com/app/id…'} {...inputLimits(rules.storeUrl)} />
          </Form.Item>
        ) : null}
        <Form.Item
          label="灰度比例（%）"
          name="rollout"
          rules={formRules(rules.rollout)}
          extra="按设备 ID 稳定分组，提高比例不会让已收到的设备失去更新"
        >
          <Slider min={1} max={100} marks={{ 1: '1%', 10: '10%', 50: '50%', 100: '100%' }} />
        </Form.Item>
        <div className="version-grid">
          <Form.Item
            label="最多提示次数"
            name="promptTimes"
            rules={formRules(rules.promptTimes)}
            extra="0 为不限（只对非强制更新）"
          >
            <InputNumber<number> precision={0} min={0} max={100} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item label="提示间隔（天）" name="promptIntervalDays" rules={formRules(rules.promptIntervalDays)}>
            <InputNumber<number> precision={0} min={0} max={365} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item label="允许忽略此版本" name="ignorable" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="审核中暂停提示" name="reviewHold" valuePropName="checked">
            <Switch />
          </Form.Item>
          {id === null ? (
            <Form.Item label="立即发布" name="published" valuePropName="checked">
              <Switch checkedChildren="发布" unCheckedChildren="草稿" />
            </Form.Item>
          ) : null}
        </div>
      </Form>
    </EditorDrawer>
  );
}

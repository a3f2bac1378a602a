import { selfappRules } from '@appdesk/contract/rules/selfapp';
import type { ApiOutput } from '@appdesk/contract/types';
import { Checkbox, Form, Input, InputNumber, Space, Switch } from 'antd';
import { useEffect } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { uploadFinder } from '../../../api/request';
import { useNewRecordApp } from '../../../components/admin/appField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { ImageUploader } from '../../../components/admin/ImageUploader';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useApps } from '../../../state/apps';

type Selfapp = ApiOutput<'/api/selfapp/fetch/detail'>['selfapp'];

interface Values {
  name: string;
  icon: string;
  description: string;
  packageId: string;
  androidUrl: string;
  iosUrl: string;
  rewardCoins: number;
  sort: number;
  enabled: boolean;
  apps: string[];
}

const blank: Values = {
  name: '',
  icon: '',
  description: '',
  packageId: '',
  androidUrl: '',
  iosUrl: '',
  rewardCoins: 0,
  sort: 0,
  enabled: true,
  apps: [],
};

const toValues = (s: Selfapp): Values => ({
  name: s.name,
  icon: s.icon,
  description: s.description,
  packageId: s.packageId,
  androidUrl: s.androidUrl,
  iosUrl: s.iosUrl,
  rewardCoins: s.rewardCoins,
  sort: s.sort,
  enabled: s.enabled,
  apps: s.apps,
});

const toInput = (v: Values) => ({
  name: v.name.trim(),
  icon: v.icon,
  description: v.description.trim(),
  packageId: v.packageId.trim(),
  androidUrl: v.androidUrl.trim(),
  iosUrl: v.iosUrl.trim(),
  rewardCoins: v.rewardCoins,
  sort: v.sort,
  enabled: v.enabled,
  apps: v.apps,
});

/** 新建 / 编辑推广应用: name, icon, where it is downloaded on each platform, reward and where it shows. */
export function SelfappEditor({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const id = typeof target === 'number' ? target : null;
  const detail = useApiQuery('/api/selfapp/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const make = useApiAction('/api/selfapp/make');
  const update = useApiAction('/api/selfapp/update');
  const selfapp = id !== null ? detail.data?.selfapp : undefined;
  const icon = Form.useWatch('icon', form);
  const { options: appOptions } = useApps();
  // A new one shows in the app the console works in (the header's switcher; the first app under 全部应用).
  const showIn = useNewRecordApp();

  useEffect(() => {
    if (target === null) return;
    form.setFieldsValue(selfapp ? toValues(selfapp) : { ...blank, apps: [showIn] });
  }, [target, selfapp, form, showIn]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const input = toInput(values);
    if (id === null) return make.mutate(input, { onSuccess: onClose });
    if (!selfapp) return;
    const before = toInput(toValues(selfapp));
    const changes = Object.fromEntries(
      Object.entries(input).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(before[k as keyof typeof before])),
    ) as Partial<typeof input>;
    if (Object.keys(changes).length === 0) return onClose();
    update.mutate({ id, ...changes }, { onSuccess: onClose });
  };

  const uploadIcon = async (file: File, onProgress: (p: number) => void) => {
    const answer = await uploadFinder(file, onProgress);
    const url = (answer.data as { url?: string } | undefined)?.url;
    if (answer.code !== 200 || !url) return false;
    form.setFieldValue('icon', url);
    return true;
  };

  const needsAddress = ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    validator: async () => {
      const any = ['packageId', 'androidUrl', 'iosUrl'].some((f) => String(getFieldValue(f) ?? '').trim());
      if (!any) throw new Error('请至少填写安卓包名、安卓下载地址或 App Store 地址中的一项');
    },
  });

  return (
    <EditorDrawer
      title={id === null ? '新建推广应用' : '编辑推广应用'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={id !== null && !selfapp}
    >
      <Form form={form} name="selfapp" layout="vertical" autoComplete="off" initialValues={blank}>
        <Form.Item label="应用名称" name="name" rules={formRules(selfappRules.name)}>
          <Input placeholder="例如：极简记账" showCount {...inputLimits(selfappRules.name)} />
        </Form.Item>
        <Form.Item name="icon" hidden>
          <Input />
        </Form.Item>
        <div style={{ marginBottom: 24 }}>
          <ImageUploader
            label="应用图标"
            src={icon || null}
            buttonText="上传图标"
            onUpload={uploadIcon}
            path="/api/finder/single"
          />
        </div>
        <Form.Item label="应用简介" name="description" rules={formRules(selfappRules.description)}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 4 }}
            placeholder="一句话说明它能做什么，展示在 App 的推荐位上"
            showCount
            {...inputLimits(selfappRules.description)}
          />
        </Form.Item>
        <Form.Item
          label="安卓包名"
          name="packageId"
          rules={[...formRules(selfappRules.packageId), needsAddress]}
          extra="已安装时 App 可直接打开它；与本应用包名相同的不会在本应用中展示"
        >
          <Input placeholder="com.example.app" {...inputLimits(selfappRules.packageId)} />
        </Form.Item>
        <Form.Item
          label="安卓下载地址"
          name="androidUrl"
          rules={formRules(rules.storeUrl)}
          extra="APK 下载地址或应用商店链接；不填时使用包名的应用市场链接"
        >
          <Input placeholder="https://… 或 market://details?id=…" {...inputLimits(rules.storeUrl)} />
        </Form.Item>
        <Form.Item label="App Store 地址" name="iosUrl" rules={formRules(rules.storeUrl)} extra="不填则不在 iOS 上展示">
          <Input placeholder="https://apps.apple.com/cn/app/id…" {...inputLimits(rules.storeUrl)} />
        </Form.Item>
        <Space wrap size={16} align="start">
          <Form.Item
            label="安装奖励"
            name="rewardCoins"
            rules={formRules(selfappRules.installReward)}
            extra="登录用户安装后发放，每人只发一次；0 表示不奖励"
          >
            <InputNumber<number>
              precision={0}
              style={{ width: 180 }}
              {...inputLimits(selfappRules.installReward)}
              suffix="金币"
            />
          </Form.Item>
          <Form.Item label="排序" name="sort" rules={formRules(rules.sort)} extra="数字小的在前">
            <InputNumber<number> precision={0} {...inputLimits(rules.sort)} />
          </Form.Item>
          <Form.Item label="启用" name="enabled" valuePropName="checked">
            <Switch checkedChildren="启用" unCheckedChildren="停用" />
          </Form.Item>
        </Space>
        <Form.Item
          label="展示位置"
          name="apps"
          rules={[{ required: true, type: 'array', min: 1, message: '请至少选择一个展示它的应用' }]}
          extra="在哪些我方 App 中展示它"
        >
          <Checkbox.Group options={appOptions} />
        </Form.Item>
      </Form>
    </EditorDrawer>
  );
}

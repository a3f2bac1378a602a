import { channels, iapEnvironments } from '@appdesk/contract/constants';
import { appsRules } from '@appdesk/contract/rules/apps';
import { Alert, Checkbox, Form, Input, Select, Switch, Typography } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { uploadFinder } from '../../../api/request';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { ImageUploader } from '../../../components/admin/ImageUploader';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useApps } from '../../../state/apps';
import { type AppValues, appChanges, blankApp, toAppInput, toAppValues } from './appForm';
import { SecretRow, SecretsKeyMissing } from './SecretRow';

const channelOptions = channels.map((c) => ({ value: c.value, label: c.label }));
const channelLabel = new Map<string, string>(channels.map((c) => [c.value, c.label]));

/** A platform whose settings the server takes from its environment (the first app only) says so. */
function FromEnvironment({ on, names }: { on: boolean | undefined; names: string }) {
  if (!on) return null;
  return (
    <Alert
      type="info"
      showIcon
      className="apps-env"
      title={`当前使用服务器环境变量中的${names}设置`}
      description="这里填写的值在这些环境变量移除后生效。"
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="apps-section" aria-label={title}>
      <Typography.Title level={5} className="apps-section-title">
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}

/** 登记应用 / 编辑应用: identity, platforms and channels, then each store's and payment's settings. */
export function AppEditor({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const [form] = Form.useForm<AppValues>();
  const id = typeof target === 'number' ? target : null;
  const detail = useApiQuery('/api/apps/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  // Both refresh every /api/apps/ query: the header's switcher shows a new or renamed app at once.
  const make = useApiAction('/api/apps/make');
  const update = useApiAction('/api/apps/update');
  const { secretsWritable } = useApps();
  const app = id !== null ? detail.data?.app : undefined;
  const icon = Form.useWatch('icon', form);
  const shipped = Form.useWatch('shipped', form) ?? [];

  useEffect(() => {
    if (target === null) return;
    form.setFieldsValue(app ? toAppValues(app) : blankApp);
  }, [target, app, form]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    if (id === null) return make.mutate(toAppInput(values), { onSuccess: onClose });
    if (!app) return;
    const changes = appChanges(values, app);
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

  const env = app?.fromEnvironment;
  const secrets = (kind: 'googleServiceAccount' | 'wechatApiV3Key') =>
    app ? (
      <SecretRow app={app} kind={kind} writable={secretsWritable} />
    ) : (
      <Typography.Paragraph type="secondary">登记应用后可以设置密钥。</Typography.Paragraph>
    );

  return (
    <EditorDrawer
      title={id === null ? '登记应用' : `编辑应用：${app?.name ?? ''}`}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={id !== null && !app}
      width={720}
    >
      {secretsWritable ? null : <SecretsKeyMissing />}
      <Form form={form} name="app" layout="vertical" autoComplete="off" initialValues={blankApp}>
        <Section title="基本信息">
          <Form.Item
            label="应用代码"
            name="code"
            rules={id === null ? formRules(appsRules.code, { required: true }) : undefined}
            extra={
              id === null
                ? 'App 调用接口时传的 app 参数；登记后不可修改'
                : '应用代码登记后不可修改：所有记录和 App 的调用都用它'
            }
          >
            <Input placeholder="例如：quote" disabled={id !== null} {...inputLimits(appsRules.code)} />
          </Form.Item>
          <Form.Item label="应用名称" name="name" rules={formRules(appsRules.name, { required: true })}>
            <Input placeholder="例如：名言" showCount {...inputLimits(appsRules.name)} />
          </Form.Item>
          <Form.Item name="icon" hidden>
            <Input />
          </Form.Item>
          <div className="apps-icon">
            <ImageUploader
              label="应用图标"
              src={icon || null}
              buttonText="上传图标"
              onUpload={uploadIcon}
              path="/api/finder/single"
            />
          </div>
          <Form.Item label="应用简介" name="description" rules={formRules(appsRules.description)}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} showCount {...inputLimits(appsRules.description)} />
          </Form.Item>
          <Form.Item label="APP 备案号" name="icpFiling" rules={formRules(appsRules.icpFiling)}>
            <Input placeholder="例如：京ICP备12345678号-2A" {...inputLimits(appsRules.icpFiling)} />
          </Form.Item>
          <Form.Item
            label="启用"
            name="enabled"
            valuePropName="checked"
            extra={
              app?.isDefault ? '第一个应用：旧数据和未指明应用的调用都属于它' : '停用后该应用的 App 调用一律被拒绝'
            }
          >
            <Switch checkedChildren="启用" unCheckedChildren="停用" />
          </Form.Item>
        </Section>

        <Section title="平台与渠道">
          <Form.Item label="安卓包名" name="androidPackage" rules={formRules(appsRules.androidPackage)}>
            <Input placeholder="com.example.app" {...inputLimits(appsRules.androidPackage)} />
          </Form.Item>
          <Form.Item
            label="iOS Bundle ID"
            name="iosBundleId"
            rules={formRules(appsRules.iosBundleId)}
            extra="App Store 收据按它校验"
          >
            <Input placeholder="com.example.app" {...inputLimits(appsRules.iosBundleId)} />
          </Form.Item>
          <Form.Item label="上架渠道" name="shipped" extra="选中的渠道可以发布该应用的版本">
            <Checkbox.Group options={channelOptions} className="apps-channels" />
          </Form.Item>
          {shipped.length ? (
            <div className="apps-links">
              <Typography.Text type="secondary">
                商店链接（不填则按包名或 Apple ID 生成该渠道的默认链接）
              </Typography.Text>
              {channels
                .filter((c) => shipped.includes(c.value))
                .map((c) => (
                  <Form.Item
                    key={c.value}
                    label={`${channelLabel.get(c.value)} 链接`}
                    name={['storeLinks', c.value]}
                    rules={formRules(rules.storeUrl)}
                  >
                    <Input placeholder="可选" {...inputLimits(rules.storeUrl)} />
                  </Form.Item>
                ))}
            </div>
          ) : null}
        </Section>

        <Section title="App Store">
          <FromEnvironment on={env?.apple} names="App Store " />
          <Form.Item label="Apple ID（应用数字 ID）" name="appleAppId" rules={formRules(appsRules.appleAppId)}>
            <Input
              placeholder="App Store Connect 中的数字 ID"
              inputMode="numeric"
              {...inputLimits(appsRules.appleAppId)}
            />
          </Form.Item>
          <Form.Item
            label="接受的 App Store 环境"
            name="appleEnvironments"
            extra="正式环境需要填写 Apple ID；测试时可只接受沙盒环境"
          >
            <Select mode="multiple" options={iapEnvironments.map((e) => ({ value: e.value, label: e.label }))} />
          </Form.Item>
        </Section>

        <Section title="Google Play">
          <FromEnvironment on={env?.google} names="Google Play " />
          <Typography.Paragraph type="secondary">
            Google Play 的购买按安卓包名和下面的服务账号校验。
          </Typography.Paragraph>
          {secrets('googleServiceAccount')}
        </Section>

        <Section title="支付宝">
          <FromEnvironment on={env?.alipay} names="支付宝" />
          <Form.Item label="支付宝 AppID" name="alipayAppId" rules={formRules(appsRules.alipayAppId)}>
            <Input placeholder="16 位数字" inputMode="numeric" {...inputLimits(appsRules.alipayAppId)} />
          </Form.Item>
          <Form.Item
            label="支付宝公钥"
            name="alipayPublicKey"
            rules={formRules(appsRules.alipayPublicKey)}
            extra="用于验证支付宝异步通知的签名"
          >
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 6 }}
              spellCheck={false}
              {...inputLimits(appsRules.alipayPublicKey)}
            />
          </Form.Item>
        </Section>

        <Section title="微信支付">
          <FromEnvironment on={env?.wechat} names="微信支付" />
          <Form.Item label="微信支付商户号" name="wechatMchId" rules={formRules(appsRules.wechatMchId)}>
            <Input inputMode="numeric" {...inputLimits(appsRules.wechatMchId)} />
          </Form.Item>
          <Form.Item label="微信 AppID" name="wechatAppId" rules={formRules(appsRules.wechatAppId)}>
            <Input placeholder="wx 开头" {...inputLimits(appsRules.wechatAppId)} />
          </Form.Item>
          <Form.Item
            label="微信支付平台公钥"
            name="wechatPlatformPublicKey"
            rules={formRules(appsRules.wechatPlatformPublicKey)}
          >
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 6 }}
              spellCheck={false}
              {...inputLimits(appsRules.wechatPlatformPublicKey)}
            />
          </Form.Item>
          <Form.Item
            label="微信支付平台证书序列号"
            name="wechatPlatformSerial"
            rules={formRules(appsRules.wechatPlatformSerial)}
          >
            <Input {...inputLimits(appsRules.wechatPlatformSerial)} />
          </Form.Item>
          {secrets('wechatApiV3Key')}
        </Section>
      </Form>
    </EditorDrawer>
  );
}

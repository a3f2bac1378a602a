import { formatExactTime } from '@appdesk/contract/format';
import { appSecretKinds, appsRules } from '@appdesk/contract/rules/apps';
import { Alert, Button, Form, Input, Space, Tag } from 'antd';
import { useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { ConfirmLink } from '../../../components/list';
import { formRules } from '../../../components/rules';
import { untilSettled } from '../../../components/writes';
import { useGrants } from '../../../state/grants';
import type { AppView } from './appForm';

type Kind = (typeof appSecretKinds)[number]['value'];

/** Why 设置 and 清除 are off: the server has no key to seal secrets with. */
export function SecretsKeyMissing() {
  return (
    <Alert
      type="warning"
      showIcon
      className="apps-key-missing"
      title="服务器未配置密钥加密的主密钥，密钥只能由服务器的环境变量或文件提供"
    />
  );
}

/** A secret's state in words: never its value, which the server does not send back. */
export function SecretState({ state }: { state: AppView['secrets'][Kind] }) {
  if (state.source === 'environment') return <Tag color="blue">来自环境变量</Tag>;
  if (state.set) return <Tag color="green">已设置{state.setAt ? `（${formatExactTime(state.setAt)}）` : ''}</Tag>;
  return <Tag>未设置</Tag>;
}

/**
 * One secret of an app (a Google service account, the WeChat Pay APIv3 key): whether it is set and
 * when, 设置 in a password-style dialog and 清除. Without APPDESK_SECRETS_KEY on the server both are off.
 */
export function SecretRow({ app, kind, writable }: { app: AppView; kind: Kind; writable: boolean }) {
  const label = appSecretKinds.find((k) => k.value === kind)?.label ?? kind;
  const state = app.secrets[kind];
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ value: string }>();
  const set = useApiAction('/api/apps/secret/set');
  // 设置商店与支付密钥 is its own permission (apps.secrets): without it the state is shown, not changed.
  const allowed = useGrants().canCall('/api/apps/secret/set');
  const json = kind === 'googleServiceAccount';
  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    set.mutate({ id: app.id, kind, value: values.value.trim() }, { onSuccess: () => setOpen(false) });
  };
  return (
    <div className="apps-secret">
      <span className="apps-secret-label">{label}</span>
      <SecretState state={state} />
      {allowed ? (
        <Space size={0}>
          <Button type="link" size="small" disabled={!writable} onClick={() => setOpen(true)}>
            {state.source === 'console' ? '更换' : '设置'}
          </Button>
          {state.source === 'console' ? (
            <ConfirmLink
              title={`清除${label}`}
              description="清除后该平台不再可用，直到重新设置。"
              okText="清除"
              danger
              onConfirm={() => untilSettled(set.mutate, { id: app.id, kind, value: null })}
            >
              清除
            </ConfirmLink>
          ) : null}
        </Space>
      ) : null}
      <EditorModal
        title={`设置${label}`}
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => void save()}
        okText="保存"
        cancelText="取消"
        confirmLoading={set.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" autoComplete="off" preserve={false}>
          <Form.Item
            name="value"
            label={label}
            rules={formRules(appsRules.secretValue, { required: true })}
            extra="加密保存，保存后不再显示；操作日志只记录设置与否。"
          >
            {json ? (
              <Input.TextArea
                autoSize={{ minRows: 4, maxRows: 10 }}
                spellCheck={false}
                placeholder="粘贴服务账号密钥文件（JSON）的全部内容"
                className="apps-secret-text"
              />
            ) : (
              <Input.Password autoComplete="new-password" placeholder="32 位 APIv3 密钥" />
            )}
          </Form.Item>
        </Form>
      </EditorModal>
    </div>
  );
}

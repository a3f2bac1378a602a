import { formatDateTime } from '@appdesk/contract/format';
import { Alert, App, Button, Card, Form, Input, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { hashPassword } from '../../../api/hash';
import { useApiQuery } from '../../../api/hooks';
import { CodeInput } from '../../../components/totp/CodeInput';
import { RecoveryCodes } from '../../../components/totp/RecoveryCodes';
import { TotpEnrol } from '../../../components/totp/TotpEnrol';
import { send } from '../../../components/writes';

type Purpose = 'disable' | 'recovery';
type Proof = { code: string } | { password: string };

const purposes = {
  disable: { title: '关闭两步验证', ok: '关闭', say: '关闭后，登录只需密码。' },
  recovery: { title: '重新生成恢复码', ok: '生成', say: '旧的恢复码将全部作废，新的只显示一次。' },
} as const;

/**
 * Before turning the factor off or renewing the recovery codes: a current code (sent once the six
 * boxes are full) or, without the phone at hand, the password. Answers the new codes when renewed.
 */
function ProofModal({
  purpose,
  required,
  onClose,
  onDone,
}: {
  purpose: Purpose;
  required: boolean;
  onClose: () => void;
  onDone: (recoveryCodes: string[] | null) => void;
}) {
  const [byPassword, setByPassword] = useState(false);
  const [sending, setSending] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [form] = Form.useForm<{ password: string }>();
  const { notification } = App.useApp();
  const words = purposes[purpose];

  const submit = async (proof: Proof) => {
    setSending(true);
    try {
      const renewed = purpose === 'recovery' ? await send('/api/totp/update/recovery', proof) : null;
      const sent = renewed ?? (purpose === 'disable' ? await send('/api/totp/disable', proof) : null);
      if (!sent) {
        setAttempt((n) => n + 1);
        return;
      }
      notification.success({ title: sent.message });
      onDone(renewed ? renewed.data.recoveryCodes : null);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal
      open
      title={words.title}
      onCancel={onClose}
      destroyOnHidden
      footer={
        byPassword ? (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" danger={purpose === 'disable'} loading={sending} onClick={() => form.submit()}>
              {words.ok}
            </Button>
          </Space>
        ) : (
          <Button onClick={onClose}>取消</Button>
        )
      }
    >
      <p>
        {words.say}
        {purpose === 'disable' && required ? '你的角色要求两步验证：关闭后须重新绑定才能继续使用后台。' : null}
      </p>
      {byPassword ? (
        <Form
          form={form}
          layout="vertical"
          autoComplete="off"
          onFinish={(values) => void submit({ password: hashPassword(values.password) })}
        >
          <Form.Item label="登录密码" name="password" rules={[{ required: true, message: '请输入登录密码' }]}>
            <Input.Password autoFocus autoComplete="current-password" placeholder="请输入登录密码" />
          </Form.Item>
        </Form>
      ) : (
        <>
          <p>输入验证器 App 当前显示的 6 位验证码：</p>
          <CodeInput key={attempt} autoFocus disabled={sending} onComplete={(code) => void submit({ code })} />
        </>
      )}
      <Button type="link" style={{ paddingInline: 0 }} onClick={() => setByPassword(!byPassword)}>
        {byPassword ? '改用验证码' : '手机不在身边？改用登录密码'}
      </Button>
    </Modal>
  );
}

/** 个人中心 · 两步验证: bind an authenticator app, see the recovery codes once, renew them, turn it off. */
export function TwoFactorCard() {
  const status = useApiQuery('/api/totp/fetch/status', {});
  const [enrolling, setEnrolling] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [proofFor, setProofFor] = useState<Purpose | null>(null);
  const { notification } = App.useApp();
  const data = status.data;
  const refresh = () => void status.refetch();

  return (
    <Card
      title="两步验证"
      loading={status.isLoading}
      extra={data?.required ? <Tag color="orange">所属角色要求开启</Tag> : null}
    >
      {data?.enabled ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Space wrap>
            <Tag color="green">已开启</Tag>
            <span>
              {formatDateTime(data.enabledAt)} 开启，剩余恢复码 {data.recoveryCodesLeft} 个
            </span>
          </Space>
          {data.recoveryCodesLeft <= 2 ? (
            <Alert type="warning" showIcon title="恢复码快用完了，请重新生成并妥善保存" />
          ) : null}
          <Space wrap>
            <Button onClick={() => setProofFor('recovery')}>重新生成恢复码…</Button>
            <Button danger onClick={() => setProofFor('disable')}>
              关闭两步验证…
            </Button>
          </Space>
        </Space>
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <span>
            开启后，登录时除密码外还需输入手机验证器 App 上每 30 秒变化的 6 位验证码：即使密码泄露，别人也无法登录。
          </span>
          {data?.required ? (
            <Alert type="warning" showIcon title="你的角色要求开启两步验证，开启前无法使用后台的其他功能" />
          ) : null}
          {data && !data.available ? (
            <Alert
              type="warning"
              showIcon
              title="暂不能开启"
              description="服务器未配置密钥加密的主密钥，无法保存验证器密钥，请联系部署人员配置。"
            />
          ) : null}
          <Button type="primary" disabled={!data?.available} onClick={() => setEnrolling(true)}>
            开启两步验证…
          </Button>
        </Space>
      )}
      <Modal
        open={enrolling}
        title="绑定验证器"
        footer={<Button onClick={() => setEnrolling(false)}>取消</Button>}
        onCancel={() => setEnrolling(false)}
        destroyOnHidden
      >
        <TotpEnrol
          onEnrolled={(recoveryCodes, message) => {
            notification.success({ title: message || '两步验证已开启' });
            setEnrolling(false);
            setCodes(recoveryCodes);
            refresh();
          }}
        />
      </Modal>
      <Modal
        open={codes !== null}
        title="保存恢复码"
        closable={false}
        mask={{ closable: false }}
        keyboard={false}
        footer={
          <Button type="primary" onClick={() => setCodes(null)}>
            我已保存
          </Button>
        }
        destroyOnHidden
      >
        {codes ? <RecoveryCodes codes={codes} /> : null}
      </Modal>
      {proofFor ? (
        <ProofModal
          purpose={proofFor}
          required={data?.required === true}
          onClose={() => setProofFor(null)}
          onDone={(recoveryCodes) => {
            setProofFor(null);
            if (recoveryCodes) setCodes(recoveryCodes);
            refresh();
          }}
        />
      ) : null}
    </Card>
  );
}

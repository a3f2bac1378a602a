import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { hashPassword } from '../../../api/hash';
import { notify } from '../../../api/notify';
import { PasswordRuleList } from '../../../components/PasswordRuleList';
import { operatorPasswordFormRule, strongPasswordRule } from '../../../components/rules';
import { send } from '../../../components/writes';
import { readStoredUser } from '../../../state/session';

interface Values {
  old?: string;
  refresh: string;
  confirm: string;
}

/**
 * 修改初始密码: shown after signing in with a password someone else chose (生成账号 or an
 * operator's reset). Every other call answers 428 until it is done. `knownOld` is the password
 * just typed on the login form; without it (a reload) the form asks for it.
 */
export function ForcedChange({
  knownOld,
  onDone,
  onSignOut,
}: {
  knownOld?: string;
  onDone: () => void;
  /** 换个账号登录: ends this session and goes back to the login form. */
  onSignOut: () => void;
}) {
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<Values>();
  const typed = Form.useWatch('refresh', form);
  // An operator's new password meets the operator rule (等保二级): shown live, checked by the server
  // on the plain text sent beside the digest. The apps' users keep the basic rule.
  const [operator] = useState(() => {
    const user = readStoredUser();
    return user?.isAdmin === true ? { phone: user.phone } : null;
  });

  const onFinish = async (values: Values) => {
    const old = knownOld ?? values.old ?? '';
    setSaving(true);
    try {
      const sent = await send('/api/users/update/password', {
        old: hashPassword(old),
        refresh: hashPassword(values.refresh),
        ...(operator ? { plainPassword: values.refresh } : {}),
      });
      if (sent) {
        void notify('success', { title: '密码已修改', description: '请牢记新密码，下次用它登录' });
        onDone();
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="user-card" aria-labelledby="change-title">
      <h1 id="change-title">修改初始密码</h1>
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title="当前密码由管理员生成或重置，请先设置只有你知道的新密码，然后才能继续使用。"
      />
      <Form<Values>
        form={form}
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={onFinish}
        autoComplete="off"
      >
        {knownOld === undefined ? (
          <Form.Item label="当前密码" name="old" rules={[{ required: true, message: '请输入当前密码' }]}>
            <Input.Password placeholder="管理员告知你的初始密码" autoComplete="current-password" />
          </Form.Item>
        ) : null}
        <Form.Item
          label="新密码"
          name="refresh"
          extra={
            operator ? <PasswordRuleList password={typed} phone={operator.phone} /> : '至少 8 位，需同时包含字母和数字'
          }
          rules={[
            { required: true, message: '请输入新密码' },
            operator ? operatorPasswordFormRule(() => operator.phone) : strongPasswordRule,
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                value && value === (knownOld ?? getFieldValue('old'))
                  ? Promise.reject(new Error('新密码不能与当前密码相同'))
                  : Promise.resolve(),
            }),
          ]}
        >
          <Input.Password placeholder="请输入新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认新密码"
          name="confirm"
          dependencies={['refresh']}
          rules={[
            { required: true, message: '请再次输入新密码' },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('refresh')
                  ? Promise.resolve()
                  : Promise.reject(new Error('两次输入的新密码不一致')),
            }),
          ]}
        >
          <Input.Password placeholder="请再次输入新密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={saving}>
            修改密码并继续
          </Button>
        </Form.Item>
        <Button type="link" block onClick={onSignOut}>
          换个账号登录
        </Button>
      </Form>
    </section>
  );
}

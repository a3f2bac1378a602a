import { App, Form, Input } from 'antd';
import { useState } from 'react';
import { hashPassword } from '../../api/hash';
import { userStore } from '../../state/session';
import { useStore } from '../../state/store';
import { PasswordRuleList } from '../PasswordRuleList';
import { operatorPasswordFormRule } from '../rules';
import { send } from '../writes';
import { EditorModal } from './EditorModal';

interface Values {
  old: string;
  refresh: string;
  confirm: string;
}

/**
 * 修改密码 in the console: old, new and confirmation. Both passwords are sent hashed, and the new
 * one's plain text too, so the server can check the operator rule (等保二级), shown live below it.
 */
export function PasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const phone = useStore(userStore, (s) => s.currentUser?.phone);
  const typed = Form.useWatch('refresh', form);
  const { notification } = App.useApp();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      // Sent directly rather than through useApiAction: the notice shows the server's message.
      const sent = await send('/api/users/update/password', {
        old: hashPassword(values.old),
        refresh: hashPassword(values.refresh),
        plainPassword: values.refresh,
      });
      if (sent) {
        const message = sent.message || '密码已修改';
        notification.success({ title: message, description: message });
        form.resetFields();
        onClose();
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <EditorModal
      title="修改密码"
      open={open}
      onOk={() => void submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      okText="确认修改"
      cancelText="取消"
      confirmLoading={saving}
      forceRender
    >
      <Form form={form} layout="vertical" autoComplete="off" onFinish={() => void submit()}>
        <Form.Item label="原密码" name="old" rules={[{ required: true, message: '请输入原密码' }]}>
          <Input.Password placeholder="请输入当前使用的密码" autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="refresh"
          extra={<PasswordRuleList password={typed} phone={phone} />}
          dependencies={['old']}
          rules={[
            { required: true, message: '请输入新密码' },
            operatorPasswordFormRule(() => phone),
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                value && value === getFieldValue('old')
                  ? Promise.reject(new Error('新密码不能与原密码相同'))
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
      </Form>
    </EditorModal>
  );
}

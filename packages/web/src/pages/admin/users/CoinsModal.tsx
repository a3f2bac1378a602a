import { Code } from '@appdesk/contract/codes';
import type { AdminUser } from '@appdesk/contract/types';
import { App, Form, Input, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../../api/request';
import { useRefreshUsers } from './actions';

interface Values {
  delta: number | null;
  reason: string;
}

const LIMIT = 1_000_000_000;

/** 调整金币: a non-zero integer (negative deducts) and a required reason; recorded in the ledger. */
export function CoinsModal({
  user,
  onClose,
}: {
  user: Pick<AdminUser, 'id' | 'name' | 'coins'> | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const { notification } = App.useApp();
  const refresh = useRefreshUsers();
  const [saving, setSaving] = useState(false);
  const delta = Form.useWatch('delta', form);

  const close = () => {
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    if (!user) return;
    const values = await form.validateFields().catch(() => null);
    if (!values || typeof values.delta !== 'number') return;
    setSaving(true);
    try {
      const res = await call('/api/users/update/coins', {
        id: user.id,
        delta: values.delta,
        reason: values.reason.trim(),
      });
      if (res.code === Code.OK && res.data) {
        notification.success({
          title: '金币已调整',
          description: `${user.name} 当前余额 ${res.data.coins.toLocaleString('zh-CN')} 金币`,
        });
        await refresh();
        close();
      }
    } catch {
      // The request client already showed the error.
    } finally {
      setSaving(false);
    }
  };

  const after = user && typeof delta === 'number' && Number.isInteger(delta) ? user.coins + delta : null;

  return (
    <Modal
      title={user ? `调整金币 - ${user.name}` : '调整金币'}
      open={user !== null}
      onOk={() => void submit()}
      onCancel={close}
      okText="确认调整"
      cancelText="取消"
      confirmLoading={saving}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        当前余额 {user?.coins.toLocaleString('zh-CN') ?? '-'} 金币。正数为增加，负数为扣减，调整会记入金币流水。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" autoComplete="off" onFinish={() => void submit()}>
        <Form.Item
          label="调整数量"
          name="delta"
          extra={after !== null ? `调整后余额 ${after.toLocaleString('zh-CN')} 金币` : undefined}
          rules={[
            { required: true, message: '请输入调整数量' },
            {
              validator: (_, value: number | null | undefined) => {
                if (value === null || value === undefined) return Promise.resolve();
                if (!Number.isInteger(value)) return Promise.reject(new Error('调整数量必须是整数'));
                if (value === 0) return Promise.reject(new Error('调整数量不能为 0'));
                if (Math.abs(value) > LIMIT) return Promise.reject(new Error('调整数量不能超过 10 亿'));
                return Promise.resolve();
              },
            },
          ]}
        >
          <InputNumber<number>
            precision={0}
            min={-LIMIT}
            max={LIMIT}
            style={{ width: '100%' }}
            placeholder="例如 100 或 -50"
            suffix="金币"
          />
        </Form.Item>
        <Form.Item
          label="原因"
          name="reason"
          rules={[
            { required: true, whitespace: true, message: '请输入调整原因' },
            { max: 200, message: '原因最多 200 个字符' },
          ]}
        >
          <Input.TextArea
            placeholder="例如：活动奖励、客服补偿"
            maxLength={200}
            showCount
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

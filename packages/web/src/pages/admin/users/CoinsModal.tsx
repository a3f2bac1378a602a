import type { AdminUser } from '@appdesk/contract/types';
import { Form, Input, InputNumber, Typography } from 'antd';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { formRules, inputLimits, rules } from '../../../components/rules';

interface Values {
  delta: number | null;
  reason: string;
}

/** 调整金币: a non-zero integer (negative deducts) and a required reason; recorded in the ledger. */
export function CoinsModal({
  user,
  onClose,
}: {
  user: Pick<AdminUser, 'id' | 'name' | 'coins'> | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const delta = Form.useWatch('delta', form);
  const adjust = useApiAction('/api/users/update/coins', {
    success: ({ coins }) => ({
      title: '金币已调整',
      description: `${user?.name ?? ''} 当前余额 ${coins.toLocaleString('zh-CN')} 金币`,
    }),
  });

  const close = () => {
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    if (!user) return;
    const values = await form.validateFields().catch(() => null);
    if (!values || typeof values.delta !== 'number') return;
    adjust.mutate({ id: user.id, delta: values.delta, reason: values.reason.trim() }, { onSuccess: close });
  };

  const after = user && typeof delta === 'number' && Number.isInteger(delta) ? user.coins + delta : null;

  return (
    <EditorModal
      title={user ? `调整金币 - ${user.name}` : '调整金币'}
      open={user !== null}
      onOk={() => void submit()}
      onCancel={close}
      okText="确认调整"
      cancelText="取消"
      confirmLoading={adjust.isPending}
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
            ...formRules(rules.coinDelta),
            {
              // The server refuses a deduction past the balance: say so before sending.
              validator: (_, value: number | null | undefined) =>
                user && typeof value === 'number' && user.coins + value < 0
                  ? Promise.reject(new Error(`最多可扣减 ${user.coins.toLocaleString('zh-CN')} 金币，余额不能小于 0`))
                  : Promise.resolve(),
            },
          ]}
        >
          <InputNumber<number>
            precision={0}
            {...inputLimits(rules.coinDelta)}
            style={{ width: '100%' }}
            placeholder="例如 100 或 -50"
            suffix="金币"
          />
        </Form.Item>
        <Form.Item label="原因" name="reason" rules={formRules(rules.reason)}>
          <Input.TextArea
            placeholder="例如：活动奖励、客服补偿"
            {...inputLimits(rules.reason)}
            showCount
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

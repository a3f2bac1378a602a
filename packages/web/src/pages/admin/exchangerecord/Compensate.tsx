import { exchangeKinds } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import { Form, Input, Select } from 'antd';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { UserPicker } from '../../../components/admin/UserPicker';
import { formRules, inputLimits, phoneRules, rules } from '../../../components/rules';

interface Values {
  userId: number | null;
  itemId: number | null;
  receiverName: string;
  receiverPhone: string;
  address: string;
  note: string;
}

/**
 * 补发: an operator sends a user one exchange item without taking coins (a customer-service
 * compensation): the user found by phone or nickname, the item, delivery for a physical one, and
 * the reason, which stays in the record's note and the operation log. The user gets a message.
 */
export function CompensateModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const items = useApiQuery(
    '/api/exchange/item/fetch/page',
    { size: 200, sort: 'sort', order: 'ascend' },
    { enabled: open },
  );
  const make = useApiAction('/api/exchange/record/make', {
    success: ({ record }) => ({
      title: '已补发',
      description:
        record.status === 'waiting'
          ? `“${record.itemName}”待发货，可在待发货中发货`
          : `“${record.itemName}”已发放到用户账户`,
    }),
  });
  const itemId = Form.useWatch('itemId', form);
  const item = items.data?.list.find((i) => i.id === itemId);
  const physical = item?.kind === 'physical';

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values?.userId || !values.itemId) return;
    const delivery = physical
      ? {
          receiverName: values.receiverName.trim(),
          receiverPhone: values.receiverPhone.trim(),
          address: values.address.trim(),
        }
      : {};
    make.mutate(
      { userId: values.userId, itemId: values.itemId, note: values.note.trim(), ...delivery },
      { onSuccess: onClose },
    );
  };

  return (
    <EditorModal
      title="补发兑换商品"
      open={open}
      onOk={() => void submit()}
      onCancel={onClose}
      okText="补发"
      cancelText="取消"
      confirmLoading={make.isPending}
      destroyOnHidden
      width={560}
    >
      <p className="list-muted">不扣用户金币，也不受兑换时间和每人限兑的限制；用户会收到站内消息。</p>
      <Form
        form={form}
        name="compensate"
        layout="vertical"
        autoComplete="off"
        initialValues={{ userId: null, itemId: null, receiverName: '', receiverPhone: '', address: '', note: '' }}
      >
        <Form.Item
          label="用户"
          name="userId"
          rules={[{ required: true, message: '请搜索并选择要补发的用户' }]}
          extra="按手机号（完整或 3 位以上片段）、昵称或用户 ID 搜索"
        >
          <UserPicker />
        </Form.Item>
        <Form.Item label="商品" name="itemId" rules={[{ required: true, message: '请选择要补发的商品' }]}>
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="选择兑换商品"
            loading={items.isLoading}
            options={(items.data?.list ?? []).map((i) => ({
              value: i.id,
              label: `${i.name}（${labelOf(exchangeKinds, i.kind)}${i.enabled ? '' : '，已下架'}）`,
            }))}
          />
        </Form.Item>
        {physical ? (
          <>
            <Form.Item label="收货人" name="receiverName" rules={formRules(rules.receiverName)}>
              <Input {...inputLimits(rules.receiverName)} />
            </Form.Item>
            <Form.Item label="收货手机号" name="receiverPhone" rules={phoneRules}>
              <Input inputMode="numeric" maxLength={11} placeholder="11 位手机号" />
            </Form.Item>
            <Form.Item label="收货地址" name="address" rules={formRules(rules.address)}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} {...inputLimits(rules.address)} showCount />
            </Form.Item>
          </>
        ) : null}
        <Form.Item label="补发原因" name="note" rules={formRules(rules.reason)} extra="记入兑换记录的备注和操作日志">
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 4 }}
            {...inputLimits(rules.reason)}
            showCount
            placeholder="例如：快递丢件，客服补偿"
          />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

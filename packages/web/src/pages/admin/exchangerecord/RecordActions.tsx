import type { ApiOutput } from '@appdesk/contract/types';
import { AutoComplete, Descriptions, Form, Input, Typography } from 'antd';
import { useEffect } from 'react';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { MaskedPhone } from '../../../components/admin/MaskedPhone';
import { formRules, rules } from '../../../components/rules';
import { useGrants } from '../../../state/grants';

type RecordRow = ApiOutput<'/api/exchange/record/fetch/page'>['list'][number];

export const carriers = ['顺丰速运', '中通快递', '圆通速递', '韵达快递', '申通快递', '京东物流', 'EMS', '极兔速递'];

/**
 * A receiver's phone, masked until the eye is pressed: the whole number is for delivery, asked of
 * the server each time and written to the operation log (查看收货手机号), then copyable. Masked
 * only, with no eye, for an operator without 查看完整收货手机号.
 */
export function ReceiverPhone({ record }: { record: Pick<RecordRow, 'id' | 'receiverPhone'> }) {
  const reveal = useApiAction('/api/exchange/record/fetch/phone', { refreshes: [] });
  const { canCall } = useGrants();
  if (!record.receiverPhone) return null;
  if (!canCall('/api/exchange/record/fetch/phone')) return <span>{record.receiverPhone}</span>;
  return (
    <MaskedPhone
      masked={record.receiverPhone}
      what="收货手机号"
      copyable
      pending={reveal.isPending}
      reveal={(show) => reveal.mutate({ id: record.id }, { onSuccess: (answer) => show(answer.receiverPhone) })}
    />
  );
}

/** 发货: carrier (common ones offered) and tracking number; the user gets an in-app message. */
export function ShipModal({ record, onClose }: { record: RecordRow | null; onClose: () => void }) {
  const [form] = Form.useForm<{ carrier: string; trackingNo: string }>();
  const ship = useApiAction('/api/exchange/record/ship');
  useEffect(() => {
    if (record) form.setFieldsValue({ carrier: record.carrier ?? '', trackingNo: record.trackingNo ?? '' });
  }, [record, form]);
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !record) return;
    ship.mutate(
      { id: record.id, carrier: values.carrier.trim(), trackingNo: values.trackingNo.trim() },
      { onSuccess: onClose },
    );
  };
  return (
    <EditorModal
      title={record?.status === 'shipped' ? '修改快递单号' : '发货'}
      open={record !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="确认发货"
      cancelText="取消"
      okButtonProps={{ loading: ship.isPending }}
      destroyOnHidden
    >
      {record ? (
        <Descriptions
          size="small"
          column={1}
          style={{ marginBottom: 16 }}
          items={[
            { key: 'item', label: '商品', children: record.itemName },
            { key: 'name', label: '收货人', children: record.receiverName },
            { key: 'phone', label: '收货手机号', children: <ReceiverPhone record={record} /> },
            {
              key: 'address',
              label: '收货地址',
              children: (
                <Typography.Text copyable={{ tooltips: ['复制地址', '已复制'] }}>{record.address}</Typography.Text>
              ),
            },
          ]}
        />
      ) : null}
      <Form form={form} name="ship" layout="vertical" autoComplete="off">
        <Form.Item label="快递公司" name="carrier" rules={formRules(rules.carrier)}>
          <AutoComplete options={carriers.map((value) => ({ value }))} placeholder="选择或输入快递公司" />
        </Form.Item>
        <Form.Item label="快递单号" name="trackingNo" rules={formRules(rules.trackingNo)}>
          <Input placeholder="例如 SF1234567890" maxLength={rules.trackingNo.max} />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

/** 取消兑换: a reason is required; coins and stock go back, the user is told why. */
export function CancelModal({ record, onClose }: { record: RecordRow | null; onClose: () => void }) {
  const [form] = Form.useForm<{ note: string }>();
  const cancel = useApiAction('/api/exchange/record/cancel');
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !record) return;
    cancel.mutate({ id: record.id, note: values.note.trim() }, { onSuccess: onClose });
  };
  return (
    <EditorModal
      title="取消兑换"
      open={record !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="取消兑换并退回金币"
      okButtonProps={{ danger: true, loading: cancel.isPending }}
      cancelText="返回"
      destroyOnHidden
    >
      {record ? (
        <p>
          将退回 <strong>{record.cost.toLocaleString('zh-CN')}</strong> 金币并恢复 1 件库存，用户会收到站内消息。
        </p>
      ) : null}
      <Form form={form} name="cancel" layout="vertical" autoComplete="off">
        <Form.Item label="取消原因" name="note" rules={formRules(rules.reason)}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={rules.reason.max} showCount />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

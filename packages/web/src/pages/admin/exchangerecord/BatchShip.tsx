import type { ApiOutput } from '@appdesk/contract/types';
import { AutoComplete, Form, Input } from 'antd';
import type { useBatchRun } from '../../../components/admin/BatchBar';
import { EditorModal } from '../../../components/admin/EditorModal';
import { formRules, rules } from '../../../components/rules';
import { carriers } from './RecordActions';

type RecordRow = ApiOutput<'/api/exchange/record/fetch/page'>['list'][number];

/**
 * 批量发货: one carrier for the whole batch and one tracking number per record (each parcel has
 * its own); each record is shipped as a single 发货 would be, and the result says which failed.
 */
export function BatchShipModal({
  records,
  open,
  run,
  onClose,
  onDone,
}: {
  records: RecordRow[];
  open: boolean;
  run: ReturnType<typeof useBatchRun>['mutation'];
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<{ carrier: string; trackingNos: Record<string, string> }>();
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    run.mutate(
      {
        path: '/api/exchange/record/ship/batch',
        title: '批量发货',
        input: {
          ids: records.map((r) => r.id),
          carrier: values.carrier.trim(),
          trackingNos: records.map((r) => (values.trackingNos[r.id] ?? '').trim()),
        },
      },
      {
        onSuccess: () => {
          onClose();
          onDone();
        },
      },
    );
  };
  return (
    <EditorModal
      title={`批量发货：共 ${records.length} 条兑换记录`}
      open={open}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="确认发货"
      cancelText="取消"
      okButtonProps={{ loading: run.isPending }}
      destroyOnHidden
    >
      <Form form={form} name="batch-ship" layout="vertical" autoComplete="off">
        <Form.Item label="快递公司" name="carrier" rules={formRules(rules.carrier)}>
          <AutoComplete options={carriers.map((value) => ({ value }))} placeholder="选择或输入快递公司" />
        </Form.Item>
        <div style={{ maxHeight: 360, overflowY: 'auto' }}>
          {records.map((r) => (
            <Form.Item
              key={r.id}
              label={`${r.recordNo} · ${r.itemName} · ${r.receiverName ?? ''}`}
              name={['trackingNos', String(r.id)]}
              rules={formRules(rules.trackingNo)}
            >
              <Input placeholder="快递单号" maxLength={rules.trackingNo.max} />
            </Form.Item>
          ))}
        </div>
      </Form>
    </EditorModal>
  );
}

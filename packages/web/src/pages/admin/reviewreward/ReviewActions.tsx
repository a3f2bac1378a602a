import { reviewRejectReasons } from '@appdesk/contract/constants';
import { AutoComplete, Button, Form, Image, InputNumber, Space } from 'antd';
import { useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { AppSelect, usePickedApp } from '../../../components/admin/appField';
import { EditorModal } from '../../../components/admin/EditorModal';
import { formRules, rules } from '../../../components/rules';
import { lacking, useGrants } from '../../../state/grants';

/** 驳回: a reason picked from the usual ones or typed; the screenshot stays in view, large. */
export function RejectModal({
  claim,
  onClose,
}: {
  claim: { id: number; screenshot: string } | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const reject = useApiAction('/api/reviewreward/reject');
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !claim) return;
    reject.mutate({ id: claim.id, reason: values.reason.trim() }, { onSuccess: onClose });
  };
  return (
    <EditorModal
      title="驳回好评奖励"
      open={claim !== null}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="驳回"
      okButtonProps={{ danger: true, loading: reject.isPending }}
      cancelText="取消"
      destroyOnHidden
    >
      {claim ? <Image src={claim.screenshot} alt="评价截图" style={{ maxHeight: 360, objectFit: 'contain' }} /> : null}
      <Form form={form} name="reject" layout="vertical" autoComplete="off" style={{ marginTop: 12 }}>
        <Form.Item
          label="驳回原因"
          name="reason"
          rules={formRules(rules.reason)}
          extra="可从常用原因中选择，也可以直接输入"
        >
          <AutoComplete
            options={reviewRejectReasons.map((value) => ({ value }))}
            placeholder="选择或输入驳回原因"
            maxLength={rules.reason.max}
          />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

/**
 * 奖励设置: the coins an approved claim gives in one app (later approvals only); the app the console
 * works in first (the header's switcher), another one on choice.
 */
export function RewardSetting() {
  const [app, pickApp] = usePickedApp();
  const current = useApiQuery('/api/reviewreward/fetch/settings', { app });
  const save = useApiAction('/api/reviewreward/update/settings');
  // 设置奖励金币 is its own permission: without it the amount is shown, not changed.
  const writable = useGrants().canCall('/api/reviewreward/update/settings');
  // What the operator typed; until then the saved value shows. Derived in the
  // same render that enables the input, never copied in by an effect: an effect ran after the input
  // was enabled, and digits typed in between were joined to the saved ones (100 + 120 → 100120).
  // undefined: untouched; null: cleared.
  const [draft, setDraft] = useState<number | null | undefined>(undefined);
  const coins = draft === undefined ? (current.data?.coins ?? null) : draft;
  return (
    <Space wrap style={{ marginBottom: 12 }}>
      <AppSelect
        aria-label="奖励设置的应用"
        value={app}
        onChange={(next: string) => {
          pickApp(next);
          setDraft(undefined);
        }}
        style={{ width: 150 }}
      />
      <span>每次通过奖励</span>
      <InputNumber<number>
        aria-label="奖励金币"
        disabled={!current.data || !writable}
        value={coins}
        onChange={setDraft}
        precision={0}
        min={rules.reviewCoins.min}
        max={rules.reviewCoins.max}
        suffix="金币"
        style={{ width: 150 }}
      />
      {writable ? (
        <Button
          disabled={!coins || coins === current.data?.coins}
          loading={save.isPending}
          onClick={() => coins && save.mutate({ app, coins })}
        >
          保存
        </Button>
      ) : (
        <span className="list-muted">修改{lacking('/api/reviewreward/update/settings')}</span>
      )}
    </Space>
  );
}

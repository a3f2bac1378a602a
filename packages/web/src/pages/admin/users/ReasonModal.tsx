import { DatePicker, Form, Input, Radio, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { EditorModal } from '../../../components/admin/EditorModal';
import { formRules, inputLimits, rules } from '../../../components/rules';

/** How long a block lasts: a number of days, until an operator lifts it, or until a picked day ends. */
export const blockDurations = [
  { value: '1', label: '1 天' },
  { value: '7', label: '7 天' },
  { value: '30', label: '30 天' },
  { value: 'forever', label: '永久' },
  { value: 'date', label: '指定日期' },
] as const;
type Duration = (typeof blockDurations)[number]['value'];

interface Values {
  reason: string;
  duration?: Duration;
  date?: Dayjs | null;
}

/** What the operator confirmed: the reason (for the operation log) and, for a block, its end. */
export interface Confirmed {
  reason: string;
  /** ISO time the block ends; null: until lifted. */
  until: string | null;
}

/** The end of a block of `duration`, as the server takes it. */
export function untilOf(duration: Duration | undefined, date: Dayjs | null | undefined): string | null {
  if (duration === 'date') return date ? date.endOf('day').toISOString() : null;
  if (!duration || duration === 'forever') return null;
  return dayjs().add(Number(duration), 'day').toISOString();
}

/**
 * The confirmation of a dangerous action on accounts: says what will happen, asks why (required;
 * it goes to the operation log) and, for a block, how long (1, 7 or 30 days, for good, or until a
 * picked day). The server lifts a timed block by itself when it ends.
 */
export function ReasonModal({
  open,
  title,
  description,
  okText,
  duration = false,
  pending,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  title: string;
  description: ReactNode;
  okText: string;
  duration?: boolean;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (confirmed: Confirmed) => void;
}) {
  const [form] = Form.useForm<Values>();
  const picked = Form.useWatch('duration', form);
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    onSubmit({
      reason: values.reason.trim(),
      until: duration ? untilOf(values.duration, values.date) : null,
    });
  };
  return (
    <EditorModal
      title={title}
      open={open}
      onOk={() => void submit()}
      onCancel={onCancel}
      okText={okText}
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={pending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        autoComplete="off"
        preserve={false}
        initialValues={{ duration: '7' }}
        onFinish={() => void submit()}
      >
        {duration ? (
          <>
            <Form.Item label="封禁时长" name="duration" extra="到期后自动解封，无需人工操作">
              <Radio.Group optionType="button" options={blockDurations.map(({ value, label }) => ({ value, label }))} />
            </Form.Item>
            {picked === 'date' ? (
              <Form.Item
                label="封禁至"
                name="date"
                rules={[{ required: true, message: '请选择封禁截止日期' }]}
                extra="封禁到所选日期当天 24:00 为止"
              >
                <DatePicker
                  style={{ width: '100%' }}
                  placeholder="选择日期"
                  disabledDate={(day) => day.isBefore(dayjs(), 'day')}
                />
              </Form.Item>
            ) : null}
          </>
        ) : null}
        <Form.Item label="原因" name="reason" rules={formRules(rules.reason)} extra="原因会记入操作日志">
          <Input.TextArea
            placeholder="例如：发布违规内容、用户申诉通过"
            {...inputLimits(rules.reason)}
            showCount
            autoSize={{ minRows: 2, maxRows: 5 }}
          />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

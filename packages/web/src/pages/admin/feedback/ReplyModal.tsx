import { formatDateTime } from '@appdesk/contract/format';
import { Descriptions, Form, Input, Typography } from 'antd';
import { useEffect } from 'react';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { ImageStrip } from '../../../components/admin/ImageStrip';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useApps } from '../../../state/apps';
import { deviceLine, type FeedbackRow, statusTag } from './parts';

/**
 * 回复反馈: the whole feedback with its images large, and the answer. A signed-in author gets the
 * reply as an in-app message; one who was not signed in is reached through the contact they left.
 */
export function ReplyModal({ feedback, onClose }: { feedback: FeedbackRow | null; onClose: () => void }) {
  const [form] = Form.useForm<{ reply: string }>();
  const { nameOf } = useApps();
  const reply = useApiAction('/api/feedback/reply', {
    success: ({ messageSent }) => ({
      title: '回复已发送',
      description: messageSent ? '用户会在 App 的消息中心看到这条回复' : '用户未登录，请通过联系方式告知',
    }),
  });

  useEffect(() => {
    if (feedback) form.setFieldsValue({ reply: feedback.reply ?? '' });
  }, [feedback, form]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !feedback) return;
    reply.mutate({ id: feedback.id, reply: values.reply.trim() }, { onSuccess: onClose });
  };

  return (
    <EditorModal
      title="回复反馈"
      open={feedback !== null}
      onOk={() => void submit()}
      onCancel={onClose}
      okText="发送回复"
      cancelText="取消"
      confirmLoading={reply.isPending}
      forceRender
      width={640}
    >
      {feedback ? (
        <>
          <Typography.Paragraph className="feedback-full">{feedback.content}</Typography.Paragraph>
          <ImageStrip images={feedback.images} size={96} />
          <Descriptions size="small" column={1} className="feedback-facts">
            <Descriptions.Item label="用户">
              {feedback.userId ? `${feedback.user}（ID ${feedback.userId}）` : '未登录'}
            </Descriptions.Item>
            <Descriptions.Item label="联系方式">{feedback.contact || '未留联系方式'}</Descriptions.Item>
            <Descriptions.Item label="来源">{deviceLine(feedback, nameOf)}</Descriptions.Item>
            <Descriptions.Item label="提交时间">{formatDateTime(feedback.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="状态">
              {statusTag(feedback.status)}
              {feedback.handler ? `${feedback.handler} 处理于 ${formatDateTime(feedback.handledAt)}` : null}
            </Descriptions.Item>
          </Descriptions>
        </>
      ) : null}
      <Form form={form} name="feedback-reply" layout="vertical" autoComplete="off" initialValues={{ reply: '' }}>
        <Form.Item
          label="回复内容"
          name="reply"
          rules={formRules(rules.feedbackReply)}
          extra={feedback && !feedback.userId ? '该用户提交时未登录，收不到 App 内消息' : undefined}
        >
          <Input.TextArea
            placeholder="例如：感谢反馈！该问题已在新版本修复，请更新后再试。"
            {...inputLimits(rules.feedbackReply)}
            showCount
            autoSize={{ minRows: 4, maxRows: 10 }}
          />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

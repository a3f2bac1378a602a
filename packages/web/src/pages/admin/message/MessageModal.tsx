import type { ApiInput, ApiOutput } from '@appdesk/contract/types';
import { App, Form, Input, Radio } from 'antd';
import { useEffect } from 'react';
import { useApiAction } from '../../../api/hooks';
import { AppSelect, useNewRecordApp } from '../../../components/admin/appField';
import { EditorModal } from '../../../components/admin/EditorModal';
import { UserPicker } from '../../../components/admin/UserPicker';
import { formRules, inputLimits, rules } from '../../../components/rules';

export type AdminMessage = ApiOutput<'/api/message/fetch/page'>['list'][number];

interface Values {
  title: string;
  content: string;
  target: 'all' | 'user';
  userId: number | null;
  app: string;
}

/**
 * 发送消息 (no `message`) or 编辑消息 (a `message`). Editing sends only the fields that changed,
 * as the product asks (docs/spec-notes.md#7-requests).
 */
export function MessageModal({
  open,
  message,
  onClose,
}: {
  open: boolean;
  message: AdminMessage | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const { notification } = App.useApp();
  const make = useApiAction('/api/message/make', {
    success: ({ message: sent }) => ({
      title: '消息已发送',
      description: sent.userId === null ? '全体用户都会收到这条消息' : `已发送给用户 ${sent.userPhone ?? sent.userId}`,
    }),
  });
  const update = useApiAction('/api/message/update');
  const target = Form.useWatch('target', form);
  // A message is sent in the app the console works in (the header's switcher) unless the operator picks another.
  const newApp = useNewRecordApp();
  const editing = message !== null;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldValue('app', newApp);
    if (message) form.setFieldsValue({ title: message.title, content: message.content });
  }, [open, message, form, newApp]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const title = values.title.trim();
    const content = values.content.trim();
    if (message) {
      const patch: ApiInput<'/api/message/update'> = { id: message.id };
      if (title !== message.title) patch.title = title;
      if (content !== message.content) patch.content = content;
      if (patch.title === undefined && patch.content === undefined) {
        notification.success({ title: '内容没有变化，无需保存' });
        onClose();
        return;
      }
      update.mutate(patch, { onSuccess: onClose });
    } else {
      const userId = values.target === 'user' ? values.userId : null;
      make.mutate({ title, content, userId, app: values.app }, { onSuccess: onClose });
    }
  };

  return (
    <EditorModal
      title={editing ? '编辑消息' : '发送消息'}
      open={open}
      onOk={() => void submit()}
      onCancel={onClose}
      okText={editing ? '保存' : '发送'}
      cancelText="取消"
      confirmLoading={make.isPending || update.isPending}
      forceRender
      width={600}
    >
      <Form
        form={form}
        layout="vertical"
        autoComplete="off"
        initialValues={{ title: '', content: '', target: 'all', userId: null, app: newApp }}
      >
        <Form.Item label="标题" name="title" rules={formRules(rules.messageTitle)}>
          <Input placeholder="例如：系统维护通知" {...inputLimits(rules.messageTitle)} showCount />
        </Form.Item>
        <Form.Item label="内容" name="content" rules={formRules(rules.messageContent)}>
          <Input.TextArea
            placeholder="消息正文，用户在 App 的消息中心查看"
            {...inputLimits(rules.messageContent)}
            showCount
            autoSize={{ minRows: 4, maxRows: 12 }}
          />
        </Form.Item>
        {editing ? null : (
          <>
            <Form.Item label="应用" name="app" extra="消息出现在该应用的消息中心">
              <AppSelect />
            </Form.Item>
            <Form.Item label="发送对象" name="target">
              <Radio.Group
                options={[
                  { value: 'all', label: '全体用户' },
                  { value: 'user', label: '指定用户' },
                ]}
              />
            </Form.Item>
            {target === 'user' ? (
              <Form.Item
                label="接收用户"
                name="userId"
                rules={[{ required: true, message: '请搜索并选择接收消息的用户' }]}
                extra="按手机号（完整或 3 位以上片段）、昵称或用户 ID 搜索"
              >
                <UserPicker />
              </Form.Item>
            ) : null}
          </>
        )}
      </Form>
    </EditorModal>
  );
}

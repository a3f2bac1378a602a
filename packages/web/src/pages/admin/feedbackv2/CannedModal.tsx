import { Button, Form, Input, List, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { formRules, inputLimits, rules } from '../../../components/rules';

type Canned = { id: number; title: string; content: string };

/** 快捷回复模板: short answers operators pick in a thread; added, edited and deleted here. */
export function CannedModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const list = useApiQuery('/api/feedbackv2/canned/fetch', {}, { enabled: open });
  const make = useApiAction('/api/feedbackv2/canned/make');
  const update = useApiAction('/api/feedbackv2/canned/update');
  const remove = useApiAction('/api/feedbackv2/canned/remove');
  const [form] = Form.useForm<{ title: string; content: string }>();
  const [editing, setEditing] = useState<Canned | null>(null);

  const reset = () => {
    setEditing(null);
    form.resetFields();
  };
  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const body = { title: values.title.trim(), content: values.content.trim() };
    if (editing) update.mutate({ id: editing.id, ...body }, { onSuccess: reset });
    else make.mutate(body, { onSuccess: reset });
  };

  return (
    <EditorModal title="快捷回复模板" open={open} onCancel={onClose} footer={null} width={640} forceRender>
      <List
        className="canned-list"
        loading={list.isLoading}
        dataSource={list.data?.list ?? []}
        locale={{ emptyText: '还没有快捷回复模板。在下面写一条常用回复，回复会话时可以一键选用。' }}
        renderItem={(c) => (
          <List.Item
            actions={[
              <Button
                key="edit"
                type="link"
                size="small"
                onClick={() => {
                  setEditing(c);
                  form.setFieldsValue({ title: c.title, content: c.content });
                }}
              >
                编辑
              </Button>,
              <Popconfirm
                key="remove"
                title="删除模板"
                description="删除后不能再选用，已发送的回复不受影响。"
                okText="删除"
                cancelText="取消"
                onConfirm={() => remove.mutate({ id: c.id })}
              >
                <Button type="link" size="small" danger>
                  删除
                </Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta title={c.title} description={c.content} />
          </List.Item>
        )}
      />
      <Form form={form} name="canned" layout="vertical" autoComplete="off" initialValues={{ title: '', content: '' }}>
        <Form.Item label="模板名称" name="title" rules={formRules(rules.cannedTitle)}>
          <Input placeholder="例如：已修复请更新" {...inputLimits(rules.cannedTitle)} showCount />
        </Form.Item>
        <Form.Item label="模板内容" name="content" rules={formRules(rules.feedbackReply)}>
          <Input.TextArea
            placeholder="例如：感谢反馈！该问题已在最新版本修复，请更新后再试。"
            {...inputLimits(rules.feedbackReply)}
            showCount
            autoSize={{ minRows: 3, maxRows: 6 }}
          />
        </Form.Item>
        <Space>
          <Button type="primary" loading={make.isPending || update.isPending} onClick={() => void save()}>
            {editing ? '保存修改' : '添加模板'}
          </Button>
          {editing ? <Button onClick={reset}>取消编辑</Button> : null}
        </Space>
      </Form>
    </EditorModal>
  );
}

import { USER_BATCH_MAX } from '@appdesk/contract/rules';
import { Alert, Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { downloadExport } from '../../../components/download';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useGrants } from '../../../state/grants';
import { type Confirmed, ReasonModal } from './ReasonModal';

type Asking = 'block' | 'unblock' | 'message' | null;

/**
 * 批量操作 on the rows selected in the users list: block (with a reason and a duration), unblock
 * (with a reason), send each an in-app message, export them (.xlsx, phones masked). Each is one
 * call and one operation-log row; the selection clears when it succeeded.
 */
export function BatchBar({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const { canCall } = useGrants();
  const [asking, setAsking] = useState<Asking>(null);
  const [exporting, setExporting] = useState(false);
  const [form] = Form.useForm<{ title: string; content: string }>();
  const close = () => setAsking(null);
  const finish = () => {
    close();
    onDone();
  };
  const block = useApiAction('/api/users/block/batch', {
    success: ({ count }) => ({ title: `已封禁 ${count} 个用户`, description: '其登录会话已全部失效' }),
  });
  const unblock = useApiAction('/api/users/unblock/batch', {
    success: ({ count }) => ({ title: `已解除 ${count} 个用户的封禁` }),
  });
  const message = useApiAction('/api/users/message/batch', {
    success: ({ count }) => ({ title: `已给 ${count} 个用户发送消息` }),
    refreshes: ['/api/users/', '/api/message/'],
  });
  if (ids.length === 0) return null;
  const tooMany = ids.length > USER_BATCH_MAX;

  const confirmed = ({ reason, until }: Confirmed) => {
    if (asking === 'block') block.mutate({ ids, reason, until }, { onSuccess: finish });
    if (asking === 'unblock') unblock.mutate({ ids, reason }, { onSuccess: finish });
  };
  const send = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    message.mutate({ ids, title: values.title.trim(), content: values.content.trim() }, { onSuccess: finish });
  };
  const exportSelected = async () => {
    setExporting(true);
    try {
      await downloadExport('/api/users/export', { ids }, '所选用户.xlsx');
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="selection-bar" aria-label="批量操作">
      <span>
        已选择 <strong>{ids.length}</strong> 个用户
      </span>
      <Space wrap size={8}>
        {canCall('/api/users/block/batch') ? (
          <Button danger size="small" disabled={tooMany} onClick={() => setAsking('block')}>
            批量封禁
          </Button>
        ) : null}
        {canCall('/api/users/unblock/batch') ? (
          <Button size="small" disabled={tooMany} onClick={() => setAsking('unblock')}>
            批量解封
          </Button>
        ) : null}
        {canCall('/api/users/message/batch') ? (
          <Button size="small" disabled={tooMany} onClick={() => setAsking('message')}>
            发送消息
          </Button>
        ) : null}
        {canCall('/api/users/export') ? (
          <Button size="small" disabled={tooMany} loading={exporting} onClick={() => void exportSelected()}>
            导出所选
          </Button>
        ) : null}
        <Button size="small" type="link" onClick={onDone}>
          取消选择
        </Button>
      </Space>
      {tooMany ? <Alert type="warning" showIcon title={`一次最多操作 ${USER_BATCH_MAX} 个用户，请减少所选`} /> : null}
      <ReasonModal
        open={asking === 'block' || asking === 'unblock'}
        title={asking === 'block' ? `批量封禁 ${ids.length} 个用户` : `批量解封 ${ids.length} 个用户`}
        description={
          asking === 'block'
            ? '所选用户的登录会话将立即失效，封禁期间无法登录；其中你自己的账号会被跳过。'
            : '解除封禁后，所选用户可以重新登录。'
        }
        okText={asking === 'block' ? '封禁' : '解封'}
        duration={asking === 'block'}
        pending={block.isPending || unblock.isPending}
        onCancel={close}
        onSubmit={confirmed}
      />
      <EditorModal
        title={`给 ${ids.length} 个用户发送消息`}
        open={asking === 'message'}
        onOk={() => void send()}
        onCancel={close}
        okText="发送"
        cancelText="取消"
        confirmLoading={message.isPending}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" autoComplete="off" preserve={false}>
          <Form.Item label="标题" name="title" rules={formRules(rules.messageTitle)}>
            <Input placeholder="例如：活动奖励已到账" {...inputLimits(rules.messageTitle)} />
          </Form.Item>
          <Form.Item label="内容" name="content" rules={formRules(rules.messageContent)}>
            <Input.TextArea {...inputLimits(rules.messageContent)} showCount autoSize={{ minRows: 3, maxRows: 8 }} />
          </Form.Item>
        </Form>
      </EditorModal>
    </section>
  );
}

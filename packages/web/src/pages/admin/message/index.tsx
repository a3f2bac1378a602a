import { SendOutlined } from '@ant-design/icons';
import { Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { appColumn } from '../../../components/admin/appField';
import { PageLink } from '../../../components/admin/PageLink';
import {
  ConfirmLink,
  type FilterField,
  flagValue,
  type ListValues,
  ListView,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { untilSettled } from '../../../components/writes';
import { useGrants } from '../../../state/grants';
import { type AdminMessage, MessageModal } from './MessageModal';

const keys = ['search', 'blocked'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '搜索', placeholder: '标题或内容', width: 200 },
  {
    kind: 'select',
    name: 'blocked',
    label: '状态',
    width: 120,
    options: [
      { value: '', label: '全部' },
      { value: 'false', label: '正常' },
      { value: 'true', label: '已屏蔽' },
    ],
  },
];

const sortColumns = ['createdAt', 'updatedAt'] as const;
const defaultSort = { sort: sortColumns[0], order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const blocked = flagValue(values.blocked);
  return {
    search: values.search ?? '',
    ...(blocked === undefined ? {} : { blocked }),
    ...sortParams(sort, sortColumns),
  };
}

/** /admin/admin/message (站内消息): sent messages, send to everyone or one user, edit, block. */
export default function MessagePage() {
  const list = useList({ fetchPath: '/api/message/fetch/page', keys, toFilter, defaultSort });
  const [editing, setEditing] = useState<AdminMessage | null>(null);
  const [open, setOpen] = useState(false);
  // Sending and editing are 站内消息 · 发送与修改; blocking is a permission of its own.
  const { canCall } = useGrants();
  const canSend = canCall('/api/message/make');
  const canBlock = canCall('/api/message/block');
  const { mutate: block } = useApiAction('/api/message/block', {
    success: () => ({ title: '消息已屏蔽', description: '用户将看不到这条消息' }),
  });
  const { mutate: unblock } = useApiAction('/api/message/unblock', {
    success: () => ({ title: '已取消屏蔽', description: '用户可以重新看到这条消息' }),
  });

  const columns = useMemo<ColumnsType<AdminMessage>>(
    () => [
      {
        title: '标题',
        dataIndex: 'title',
        key: 'title',
        render: (title: string) => (
          <Typography.Text strong ellipsis={{ tooltip: title }} style={{ maxWidth: 220 }}>
            {title}
          </Typography.Text>
        ),
      },
      {
        title: '内容',
        dataIndex: 'content',
        key: 'content',
        render: (content: string) => (
          <Typography.Text ellipsis={{ tooltip: content }} style={{ maxWidth: 320 }}>
            {content}
          </Typography.Text>
        ),
      },
      {
        title: '接收人',
        key: 'userId',
        render: (_, m) =>
          m.userId === null ? (
            <Tag color="blue">全体用户</Tag>
          ) : (
            <PageLink to={`/admin/admin/users?search=${m.userId}&detail=${m.userId}`}>
              {m.userPhone ?? `ID ${m.userId}`}
            </PageLink>
          ),
      },
      appColumn<AdminMessage>(),
      { title: '已读数', dataIndex: 'readCount', key: 'readCount', align: 'right' },
      {
        title: '状态',
        dataIndex: 'blocked',
        key: 'blocked',
        render: (blocked: boolean) => (blocked ? <Tag color="red">已屏蔽</Tag> : <Tag color="green">正常</Tag>),
      },
      timeColumn('发送时间', 'createdAt'),
      timeColumn('最近修改', 'updatedAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, m) => (
          <Space size={0}>
            {canCall('/api/message/update') ? (
              <Button
                type="link"
                size="small"
                onClick={() => {
                  setEditing(m);
                  setOpen(true);
                }}
              >
                编辑
              </Button>
            ) : null}
            {!canBlock ? null : m.blocked ? (
              <ConfirmLink
                title="取消屏蔽"
                description="取消屏蔽后，接收人会重新看到这条消息。"
                okText="确定"
                onConfirm={() => untilSettled(unblock, { id: m.id })}
              >
                取消屏蔽
              </ConfirmLink>
            ) : (
              <ConfirmLink
                title="屏蔽消息"
                description="屏蔽后，这条消息会从用户的消息列表中消失。"
                okText="屏蔽"
                danger
                onConfirm={() => untilSettled(block, { id: m.id })}
              >
                屏蔽
              </ConfirmLink>
            )}
          </Space>
        ),
      },
    ],
    [block, unblock, canCall, canBlock],
  );

  return (
    <>
      <ListView<AdminMessage>
        exportPath="/api/message/export"
        exportName="站内消息"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有发送过站内消息。点击“发送消息”可以通知全体用户或某一位用户。"
        actions={
          canSend ? (
            <Button
              type="primary"
              icon={<SendOutlined aria-hidden />}
              onClick={() => {
                setEditing(null);
                setOpen(true);
              }}
            >
              发送消息
            </Button>
          ) : null
        }
      />
      <MessageModal open={open} message={editing} onClose={() => setOpen(false)} />
    </>
  );
}

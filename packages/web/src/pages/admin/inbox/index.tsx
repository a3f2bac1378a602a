import type { ApiOutput } from '@appdesk/contract/types';
import { Badge, Button, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useApiAction } from '../../../api/hooks';
import { ListView, timeColumn, useList } from '../../../components/list';
import { fetchUnreadMessages } from '../../../state/global';
import { userStore } from '../../../state/session';
import './inbox.css';
import { useStore } from '../../../state/store';

type InboxMessage = ApiOutput<'/api/message/fetch/page/mine'>['list'][number];

const keys = [] as const;
const toFilter = () => ({ unreadFirst: true });
/** Every change also refreshes the bell's unread count. */
const refreshed = { onSuccess: () => void fetchUnreadMessages(true) };

/** /admin/admin/inbox (消息中心): the signed-in operator's own messages, unread first; opened from the bell. */
export default function InboxPage() {
  const list = useList({ fetchPath: '/api/message/fetch/page/mine', keys, toFilter });
  const unreadTotal = useStore(userStore, (s) => s.unreadTotal);
  const { mutate: read } = useApiAction('/api/message/read', { success: false });
  const { mutate: unread } = useApiAction('/api/message/unread', { success: false });
  const { mutate: readAll, isPending: readingAll } = useApiAction('/api/message/read/all', {
    success: (out) => ({ title: out.count > 0 ? `已将 ${out.count} 条消息标为已读` : '没有未读消息' }),
  });

  const columns = useMemo<ColumnsType<InboxMessage>>(
    () => [
      {
        title: '标题',
        dataIndex: 'title',
        key: 'title',
        render: (title: string, m) => (
          <Badge dot={!m.read} offset={[6, 0]}>
            <Typography.Text strong={!m.read}>{title}</Typography.Text>
          </Badge>
        ),
      },
      {
        title: '内容',
        dataIndex: 'content',
        key: 'content',
        render: (content: string) => <Typography.Paragraph className="inbox-content">{content}</Typography.Paragraph>,
      },
      timeColumn('时间', 'createdAt', false),
      {
        title: '操作',
        key: 'actions',
        render: (_, m) =>
          m.read ? (
            <Button type="link" size="small" onClick={() => unread({ id: m.id }, refreshed)}>
              标为未读
            </Button>
          ) : (
            <Button type="link" size="small" onClick={() => read({ id: m.id }, refreshed)}>
              标为已读
            </Button>
          ),
      },
    ],
    [read, unread],
  );

  return (
    <ListView<InboxMessage>
      list={list}
      columns={columns}
      rowKey="id"
      fields={[]}
      actions={
        <Button disabled={unreadTotal === 0} loading={readingAll} onClick={() => readAll({}, refreshed)}>
          全部标为已读
        </Button>
      }
      emptyText="还没有消息。系统通知、反馈回复等发给你的站内消息会出现在这里，未读的排在前面。"
    />
  );
}

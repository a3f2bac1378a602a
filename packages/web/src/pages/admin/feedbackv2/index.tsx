import { MessageOutlined } from '@ant-design/icons';
import { threadAssignees, threadCategories, threadStatuses } from '@appdesk/contract/constants';
import { Badge, Button, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useMemo, useState } from 'react';
import { appColumn } from '../../../components/admin/appField';
import { BatchBar, type BatchButton, useAllowedBatches, useSelection } from '../../../components/admin/BatchBar';
import {
  type FilterField,
  idValue,
  type ListValues,
  ListView,
  rangeValue,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { rules } from '../../../components/rules';
import { CannedModal } from './CannedModal';
import { CategoryTag, type ThreadRow, ThreadStatusTag } from './parts';
import { ThreadDrawer } from './ThreadDrawer';
import './feedbackv2.css';
import { Allowed } from '../../../components/admin/Allowed';

const options = (list: readonly { value: string; label: string }[], all: string) => [
  { value: '', label: all },
  ...list.map((o) => ({ value: o.value, label: o.label })),
];

const keys = ['search', 'status', 'category', 'assignee', 'unread', 'from', 'to'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '关键字', placeholder: '留言内容', width: 180 },
  { kind: 'select', name: 'status', label: '状态', width: 120, options: options(threadStatuses, '全部') },
  { kind: 'select', name: 'category', label: '分类', width: 130, options: options(threadCategories, '全部分类') },
  { kind: 'select', name: 'assignee', label: '负责人', width: 130, options: options(threadAssignees, '全部') },
  {
    kind: 'select',
    name: 'unread',
    label: '新留言',
    width: 120,
    options: [
      { value: '', label: '全部' },
      { value: 'true', label: '只看未读' },
    ],
  },
  { kind: 'range', name: 'range', label: '最后留言' },
];
const sortColumns = ['lastPostAt', 'createdAt'] as const;
const defaultSort = { sort: 'lastPostAt', order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const pick = <V extends string>(list: readonly { value: V }[], value: string | undefined) =>
    list.find((o) => o.value === value)?.value;
  const status = pick(threadStatuses, values.status);
  const category = pick(threadCategories, values.category);
  const assignee = pick(threadAssignees, values.assignee);
  return {
    search: values.search ?? '',
    ...(status ? { status } : {}),
    ...(category ? { category } : {}),
    ...(assignee ? { assignee } : {}),
    ...(values.unread === 'true' ? { unread: true } : {}),
    ...rangeValue(values),
    ...sortParams(sort, sortColumns),
  };
}

const batchButtons: BatchButton[] = [
  {
    label: '批量回复',
    path: '/api/feedbackv2/reply/batch',
    text: { name: 'content', label: '回复内容（每个会话各发一条）', rule: rules.feedbackReply },
  },
  { label: '批量关闭', path: '/api/feedbackv2/close/batch', danger: true },
];

/** /admin/admin/feedbackv2 (反馈会话): conversations with app users, answered by operators. */
export default function FeedbackThreadsPage() {
  const list = useList({ fetchPath: '/api/feedbackv2/fetch/page', keys, toFilter, defaultSort });
  const selection = useSelection<ThreadRow>((t) => `#${t.id} ${t.subject}`);
  const { update } = list;
  const threadId = idValue(list.param('thread')) ?? null;
  const setThread = useCallback((id: number | null) => update({ thread: id ?? undefined }, true), [update]);
  const [cannedOpen, setCannedOpen] = useState(false);
  const batches = useAllowedBatches(batchButtons);

  const columns = useMemo<ColumnsType<ThreadRow>>(
    () => [
      {
        title: '会话',
        key: 'subject',
        width: 320,
        render: (_, t) => (
          <div className="thread-subject-cell">
            <Badge dot={t.unread} offset={[4, 2]}>
              <Typography.Link strong onClick={() => setThread(t.id)}>
                {t.subject}
              </Typography.Link>
            </Badge>
            {t.unread ? <span className="thread-new">用户有新留言</span> : null}
          </div>
        ),
      },
      { title: '分类', dataIndex: 'category', key: 'category', render: (c) => <CategoryTag category={c} /> },
      appColumn<ThreadRow>(),
      { title: '用户', key: 'user', render: (_, t) => `${t.user}（ID ${t.userId}）` },
      { title: '状态', dataIndex: 'status', key: 'status', render: (s) => <ThreadStatusTag status={s} /> },
      {
        title: '负责人',
        dataIndex: 'assignee',
        key: 'assignee',
        render: (a: string | null) => a ?? <span className="list-muted">未分配</span>,
      },
      timeColumn('最后留言', 'lastPostAt'),
    ],
    [setThread],
  );

  return (
    <>
      <ListView<ThreadRow>
        exportPath="/api/feedbackv2/export"
        exportName="反馈工单"
        list={list}
        columns={columns}
        rowKey="id"
        onDetail={(t) => setThread(t.id)}
        fields={fields}
        scrollX={1000}
        emptyText="还没有反馈会话。用户在 App 里发起的会话会显示在这里，可以分配、用快捷回复作答、关闭。"
        header={<BatchBar selection={selection} noun="会话" buttons={batchButtons} />}
        rowSelection={batches.length ? selection.rowSelection : undefined}
        actions={
          <Allowed path="/api/feedbackv2/canned/make">
            <Button icon={<MessageOutlined aria-hidden />} onClick={() => setCannedOpen(true)}>
              快捷回复模板
            </Button>
          </Allowed>
        }
      />
      <ThreadDrawer id={threadId} onClose={() => setThread(null)} />
      <CannedModal open={cannedOpen} onClose={() => setCannedOpen(false)} />
    </>
  );
}

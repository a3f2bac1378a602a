import { feedbackStatuses } from '@appdesk/contract/constants';
import { Button, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { BatchBar, type BatchButton, useAllowedBatches, useSelection } from '../../../components/admin/BatchBar';
import { ImageStrip } from '../../../components/admin/ImageStrip';
import {
  ConfirmLink,
  type FilterField,
  type ListValues,
  ListView,
  rangeValue,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { rules } from '../../../components/rules';
import { untilSettled } from '../../../components/writes';
import { useApps } from '../../../state/apps';
import { deviceLine, type FeedbackRow, statusTag } from './parts';
import { ReplyModal } from './ReplyModal';
import './feedback.css';
import { useGrants } from '../../../state/grants';

const keys = ['search', 'status', 'from', 'to'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '关键字', placeholder: '反馈内容或联系方式', width: 200 },
  {
    kind: 'select',
    name: 'status',
    label: '状态',
    width: 120,
    options: [{ value: '', label: '全部' }, ...feedbackStatuses.map((s) => ({ value: s.value, label: s.label }))],
  },
  { kind: 'range', name: 'range', label: '提交时间' },
];
const sortColumns = ['createdAt'] as const;
const defaultSort = { sort: 'createdAt', order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const status = feedbackStatuses.find((s) => s.value === values.status)?.value;
  return {
    search: values.search ?? '',
    ...(status ? { status } : {}),
    ...rangeValue(values),
    ...sortParams(sort, sortColumns),
  };
}

const batchButtons: BatchButton[] = [
  { label: '批量标为已处理', path: '/api/feedback/handle/batch' },
  {
    label: '批量回复',
    path: '/api/feedback/reply/batch',
    text: { name: 'reply', label: '回复内容（已登录的用户会收到）', rule: rules.feedbackReply },
  },
];

/** /admin/admin/feedback (意见反馈): what app users send, answered by operators. */
export default function FeedbackPage() {
  const list = useList({ fetchPath: '/api/feedback/fetch/page', keys, toFilter, defaultSort });
  const selection = useSelection<FeedbackRow>((f) => `#${f.id} ${f.content.slice(0, 20)}`);
  const [replying, setReplying] = useState<FeedbackRow | null>(null);
  const handle = useApiAction('/api/feedback/handle');
  const { nameOf } = useApps();
  const canReply = useGrants().canCall('/api/feedback/reply');
  const batches = useAllowedBatches(batchButtons);

  const columns = useMemo<ColumnsType<FeedbackRow>>(
    () => [
      {
        title: '反馈内容',
        key: 'content',
        width: 380,
        render: (_, f) => (
          <div className="feedback-content-cell">
            <Typography.Paragraph ellipsis={{ rows: 3, tooltip: f.content }} className="feedback-content">
              {f.content}
            </Typography.Paragraph>
            <ImageStrip images={f.images} />
            {f.reply ? (
              <Typography.Text type="secondary" ellipsis={{ tooltip: f.reply }} className="feedback-reply">
                回复：{f.reply}
              </Typography.Text>
            ) : null}
          </div>
        ),
      },
      {
        title: '用户 / 联系方式',
        key: 'user',
        render: (_, f) => (
          <div className="feedback-stack">
            <span>{f.userId ? `${f.user}（ID ${f.userId}）` : <span className="list-muted">未登录</span>}</span>
            <span className="feedback-small">{f.contact || '未留联系方式'}</span>
          </div>
        ),
      },
      {
        title: '来源',
        key: 'device',
        render: (_, f) => <span className="feedback-small">{deviceLine(f, nameOf)}</span>,
      },
      { title: '状态', dataIndex: 'status', key: 'status', render: statusTag },
      timeColumn('提交时间', 'createdAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, f) => (
          <Space size={0}>
            {canReply ? (
              <Button type="link" size="small" onClick={() => setReplying(f)}>
                {f.reply ? '再次回复' : '回复'}
              </Button>
            ) : null}
            {f.status === 'pending' ? (
              <ConfirmLink
                path="/api/feedback/handle"
                title="标记为已处理"
                description="不回复用户，只把这条反馈标为已处理。"
                okText="标记"
                onConfirm={() => untilSettled(handle.mutate, { id: f.id })}
              >
                标为已处理
              </ConfirmLink>
            ) : null}
          </Space>
        ),
      },
    ],
    [handle.mutate, nameOf, canReply],
  );

  return (
    <>
      <ListView<FeedbackRow>
        exportPath="/api/feedback/export"
        exportName="意见反馈"
        list={list}
        columns={columns}
        rowKey="id"
        detailTitle="意见反馈详情"
        fields={fields}
        scrollX={1100}
        emptyText="还没有意见反馈。用户在 App 里提交的反馈（文字、截图、联系方式和设备信息）会显示在这里，可以直接回复。"
        header={<BatchBar selection={selection} noun="反馈" buttons={batchButtons} />}
        rowSelection={batches.length ? selection.rowSelection : undefined}
      />
      <ReplyModal feedback={replying} onClose={() => setReplying(null)} />
    </>
  );
}

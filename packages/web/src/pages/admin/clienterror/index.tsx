import { clientErrorStatuses } from '@appdesk/contract/constants';
import type { ApiOutput } from '@appdesk/contract/types';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useApiAction } from '../../../api/hooks';
import {
  ConfirmLink,
  type FilterField,
  type ListValues,
  ListView,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { untilSettled } from '../../../components/writes';
import { kindLabel, Samples } from './Samples';
import './clienterror.css';

type Group = ApiOutput<'/api/clienterror/fetch/page'>['list'][number];

const keys = ['search', 'status', 'release'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '关键字', placeholder: '错误信息或出错位置', width: 200 },
  {
    kind: 'select',
    name: 'status',
    label: '状态',
    width: 120,
    options: [{ value: '', label: '全部' }, ...clientErrorStatuses.map((s) => ({ value: s.value, label: s.label }))],
  },
  { kind: 'text', name: 'release', label: '版本', placeholder: '完整的版本号', width: 160 },
];
const sortColumns = ['lastSeenAt', 'count', 'firstSeenAt'] as const;
const defaultSort = { sort: 'lastSeenAt', order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const status = clientErrorStatuses.find((s) => s.value === values.status)?.value;
  return {
    search: values.search ?? '',
    ...(status ? { status } : {}),
    ...(values.release ? { release: values.release } : {}),
    ...sortParams(sort, sortColumns),
  };
}

/**
 * /admin/admin/clienterror (前端错误): what the console and the home page threw in users' browsers,
 * one row per message, release and first stack frame; a row opens to its latest reports' stacks.
 */
export default function ClientErrorPage() {
  const list = useList({ fetchPath: '/api/clienterror/fetch/page', keys, toFilter, defaultSort });
  const resolve = useApiAction('/api/clienterror/resolve');

  const columns = useMemo<ColumnsType<Group>>(
    () => [
      {
        title: '错误信息',
        key: 'message',
        width: 260,
        render: (_, g) => (
          <div className="clienterror-message">
            <Typography.Paragraph ellipsis={{ rows: 2, tooltip: g.message }} className="clienterror-text">
              {g.message}
            </Typography.Paragraph>
            <span className="clienterror-small">
              {kindLabel(g.kind)}
              {g.frame ? ` · 出错位置 ${g.frame}` : ' · 没有调用栈'}
            </span>
          </div>
        ),
      },
      {
        title: '版本',
        dataIndex: 'release',
        key: 'release',
        width: 120,
        render: (v: string) => <span className="clienterror-release">{v}</span>,
      },
      { title: '次数', dataIndex: 'count', key: 'count', sorter: true, align: 'right', width: 80 },
      { title: '最近页面', dataIndex: 'lastPath', key: 'lastPath', width: 140 },
      { ...timeColumn<Group>('最近出现', 'lastSeenAt'), width: 170 },
      { ...timeColumn<Group>('首次出现', 'firstSeenAt'), width: 170 },
      {
        title: '状态',
        key: 'status',
        width: 90,
        render: (_, g) =>
          g.status === 'open' ? (
            <Tag color="red">未处理</Tag>
          ) : (
            <Tag color="green" title={g.resolvedBy ? `由 ${g.resolvedBy} 标记` : undefined}>
              已处理
            </Tag>
          ),
      },
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, g) =>
          g.status === 'open' ? (
            <ConfirmLink
              title="标记已处理"
              description="修复后标记。同样的错误再次上报时，会重新列为未处理。"
              okText="标记"
              path="/api/clienterror/resolve"
              onConfirm={() => untilSettled(resolve.mutate, { id: g.id })}
            >
              标记已处理
            </ConfirmLink>
          ) : (
            <span className="list-muted">-</span>
          ),
      },
    ],
    [resolve.mutate],
  );

  return (
    <ListView<Group>
      exportPath="/api/clienterror/export"
      exportName="前端错误"
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      expandable={{ expandedRowRender: (g) => <Samples groupId={g.id} /> }}
      emptyText="还没有前端错误。后台和首页在用户浏览器中未捕获的错误、未处理的 Promise 拒绝会按错误信息和版本归组显示在这里（仅生产版本上报，不含个人信息）。"
    />
  );
}

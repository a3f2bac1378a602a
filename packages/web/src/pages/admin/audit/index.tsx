import type { ApiOutput } from '@appdesk/contract/types';
import { Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useApiQuery } from '../../../api/hooks';
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
import { LoginLog } from './LoginLog';
import { LogTabs, useLogView } from './LogTabs';
import './audit.css';

type AuditEntry = ApiOutput<'/api/audit/fetch/page'>['list'][number];
type AuditAction = ApiOutput<'/api/audit/fetch/actions'>['list'][number];

const keys = ['actorId', 'action', 'from', 'to'] as const;

/**
 * 操作类型 choices from the actions the contract declares: each domain (the part of the action
 * before the first dot, which the filter matches as a prefix) and then its actions.
 */
function actionOptions(actions: AuditAction[]): { value: string; label: string }[] {
  const groups = new Map<string, AuditAction[]>();
  for (const a of actions) {
    const prefix = a.action.split('.')[0];
    const group = groups.get(prefix);
    if (group) group.push(a);
    else groups.set(prefix, [a]);
  }
  return [
    { value: '', label: '全部操作' },
    ...[...groups].flatMap(([prefix, members]) => [
      { value: prefix, label: `${members[0].targetLabel}相关（全部）` },
      ...members.map((a) => ({ value: a.action, label: `${a.label}（${a.action}）` })),
    ]),
  ];
}

function filterFields(actions: AuditAction[]): FilterField[] {
  return [
    { kind: 'id', name: 'actorId', label: '操作人 ID', placeholder: '例如 1', width: 120 },
    { kind: 'select', name: 'action', label: '操作类型', width: 200, options: actionOptions(actions) },
    { kind: 'range', name: 'range', label: '时间' },
  ];
}

const sortColumns = ['createdAt'] as const;
const defaultSort = { sort: sortColumns[0], order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const action = values.action && /^[a-z.]{1,60}$/.test(values.action) ? values.action : undefined;
  return { actorId: idValue(values.actorId), action, ...rangeValue(values), ...sortParams(sort, sortColumns) };
}

/** Compact one-line JSON of a before/after value; '-' when there is none. */
function compactJson(value: unknown): string {
  if (value === null || value === undefined) return '-';
  return JSON.stringify(value);
}

function JsonCell({ value }: { value: unknown }) {
  const text = compactJson(value);
  if (text === '-') return <span className="list-muted">-</span>;
  return (
    <Tooltip title={<span className="audit-json-tip">{text}</span>}>
      <code className="audit-json-cell">{text}</code>
    </Tooltip>
  );
}

const columns: ColumnsType<AuditEntry> = [
  timeColumn('时间', 'createdAt'),
  {
    title: '操作人',
    key: 'actor',
    render: (_, e) =>
      e.actorId === null ? (
        <span className="list-muted">系统</span>
      ) : (
        <div className="audit-actor">
          <span>{e.actorName ?? '已删除的用户'}</span>
          <span className="list-muted">ID {e.actorId}</span>
        </div>
      ),
  },
  {
    title: '操作',
    dataIndex: 'action',
    key: 'action',
    render: (action: string, e) => (
      <Tag color={action.startsWith('users') ? 'blue' : action.startsWith('message') ? 'purple' : 'orange'}>
        {e.actionLabel}
      </Tag>
    ),
  },
  {
    title: '对象',
    key: 'target',
    render: (_, e) => (
      <span>
        {e.targetLabel}
        {e.targetId ? <span className="list-muted"> #{e.targetId}</span> : null}
      </span>
    ),
  },
  { title: '修改前', dataIndex: 'before', key: 'before', render: (v: unknown) => <JsonCell value={v} /> },
  { title: '修改后', dataIndex: 'after', key: 'after', render: (v: unknown) => <JsonCell value={v} /> },
  { title: 'IP', dataIndex: 'ip', key: 'ip', render: (v: string | null) => v || <span className="list-muted">-</span> },
];

function ExpandedEntry({ entry }: { entry: AuditEntry }) {
  const block = (title: string, value: unknown) => (
    <div className="audit-json-block">
      <div className="audit-json-title">{title}</div>
      {value === null || value === undefined ? (
        <span className="list-muted">无</span>
      ) : (
        <pre className="list-json">{JSON.stringify(value, null, 2)}</pre>
      )}
    </div>
  );
  return (
    <div className="audit-expanded">
      <div className="list-muted">
        {entry.action} · {entry.targetType}
        {entry.targetId ? ` #${entry.targetId}` : ''} · 日志 ID {entry.id}
      </div>
      <div className="audit-json-pair">
        {block('修改前', entry.before)}
        {block('修改后', entry.after)}
      </div>
    </div>
  );
}

/** /admin/admin/audit: the 操作日志, and beside it (?view=login) the 登录日志. */
export default function LogsPage() {
  return useLogView() === 'login' ? <LoginLog /> : <AuditPage />;
}

/** 操作日志: who changed what and when, with before/after values. */
function AuditPage() {
  const list = useList({ fetchPath: '/api/audit/fetch/page', keys, toFilter, defaultSort });
  const actions = useApiQuery('/api/audit/fetch/actions', {});
  const fields = useMemo(() => filterFields(actions.data?.list ?? []), [actions.data]);
  return (
    <ListView<AuditEntry>
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      header={<LogTabs active="audit" />}
      emptyText="还没有操作日志。管理员封禁用户、调整金币、发送消息、修改站点配置等操作都会记录在这里。"
      exportPath="/api/audit/export"
      exportName="操作日志"
      expandable={{
        expandedRowRender: (entry) => <ExpandedEntry entry={entry} />,
        rowExpandable: (entry) => entry.before != null || entry.after != null,
      }}
    />
  );
}

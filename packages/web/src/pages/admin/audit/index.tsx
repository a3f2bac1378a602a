import type { ApiOutput } from '@appdesk/contract/types';
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { useApiQuery } from '../../../api/hooks';
import {
  type FilterField,
  type ListValues,
  ListView,
  rangeValue,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { adminPath } from '../../../layouts/pageDecl';
import './audit.css';
import { PageLink } from '../../../components/admin/PageLink';
import { phoneFilter } from '../../../components/rules';

type AuditEntry = ApiOutput<'/api/audit/fetch/page'>['list'][number];
type AuditAction = ApiOutput<'/api/audit/fetch/actions'>['list'][number];
type AuditChange = AuditEntry['changes'][number];

const keys = ['actorPhone', 'userPhone', 'action', 'from', 'to'] as const;

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
      ...members.map((a) => ({ value: a.action, label: a.label })),
    ]),
  ];
}

function filterFields(actions: AuditAction[]): FilterField[] {
  return [
    { kind: 'text', name: 'actorPhone', label: '操作人', placeholder: '操作人的 11 位手机号', width: 190 },
    { kind: 'text', name: 'userPhone', label: '对象用户', placeholder: '用户的 11 位手机号', width: 190 },
    { kind: 'select', name: 'action', label: '操作类型', width: 200, options: actionOptions(actions) },
    { kind: 'range', name: 'range', label: '时间' },
  ];
}

const sortColumns = ['createdAt'] as const;
const defaultSort = { sort: sortColumns[0], order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const action = values.action && /^[a-z0-9_.]{1,60}$/.test(values.action) ? values.action : undefined;
  return {
    actorPhone: phoneFilter(values.actorPhone),
    userPhone: phoneFilter(values.userPhone),
    action,
    ...rangeValue(values),
    ...sortParams(sort, sortColumns),
  };
}

const muted = (text: string) => <span className="list-muted">{text}</span>;

/** One changed field: 名称 旧值 → 新值 (a side the row does not have is left out). */
function ChangeLine({ change }: { change: AuditChange }) {
  return (
    <div className="audit-change">
      <span className="audit-change-field">{change.label}</span>
      {change.before !== null ? <del className="audit-change-before">{change.before}</del> : null}
      {change.before !== null && change.after !== null ? (
        <span className="audit-change-arrow" aria-hidden>
          →
        </span>
      ) : null}
      {change.after !== null ? <ins className="audit-change-after">{change.after}</ins> : null}
    </div>
  );
}

const SHOWN_CHANGES = 3;

function ChangesCell({ entry }: { entry: AuditEntry }) {
  if (!entry.changes.length) return muted('无字段变化');
  const rest = entry.changes.length - SHOWN_CHANGES;
  return (
    <div className="audit-changes">
      {entry.changes.slice(0, SHOWN_CHANGES).map((c) => (
        <ChangeLine key={c.field} change={c} />
      ))}
      {rest > 0 ? muted(`还有 ${rest} 项，展开查看`) : null}
    </div>
  );
}

function TargetCell({ entry }: { entry: AuditEntry }) {
  const link = entry.targetLink;
  const text = (
    <>
      {entry.targetLabel}
      {entry.targetId ? ` #${entry.targetId}` : ''}
    </>
  );
  return (
    <div className="audit-target">
      {link ? (
        <PageLink
          to={`${adminPath(link.page)}${link.query ? `?${link.query}` : ''}`}
          title={link.query ? '打开这条记录' : '打开所在页面'}
        >
          {text}
        </PageLink>
      ) : (
        <span>{text}</span>
      )}
      {entry.targetName ? muted(entry.targetName) : null}
    </div>
  );
}

const columns: ColumnsType<AuditEntry> = [
  timeColumn('时间', 'createdAt'),
  {
    title: '操作人',
    key: 'actor',
    render: (_, e) =>
      e.actorId === null ? (
        muted('系统')
      ) : (
        <div className="audit-actor">
          <PageLink to={`${adminPath('users')}?search=${e.actorId}&detail=${e.actorId}`} title="在用户管理中查看">
            {e.actorName ?? `已删除的用户 #${e.actorId}`}
          </PageLink>
          {e.actorPhone && e.actorName !== e.actorPhone ? muted(e.actorPhone) : null}
        </div>
      ),
  },
  {
    title: '操作',
    dataIndex: 'action',
    key: 'action',
    render: (action: string, e) => (
      <Tag color={action.startsWith('users') ? 'blue' : action.endsWith('.export') ? 'cyan' : 'orange'}>
        {e.actionLabel}
      </Tag>
    ),
  },
  { title: '对象', key: 'target', render: (_, e) => <TargetCell entry={e} /> },
  { title: '变更', key: 'changes', render: (_, e) => <ChangesCell entry={e} /> },
  { title: 'IP 地址', dataIndex: 'ip', key: 'ip', render: (v: string | null) => v || muted('-') },
];

function ExpandedEntry({ entry }: { entry: AuditEntry }) {
  return (
    <div className="audit-expanded">
      {entry.changes.length ? (
        <div className="audit-changes">
          {entry.changes.map((c) => (
            <ChangeLine key={c.field} change={c} />
          ))}
        </div>
      ) : (
        muted('这条记录没有字段变化。')
      )}
      <details className="audit-raw">
        <summary>原始数据（日志 ID {entry.id}）</summary>
        <pre className="list-json">{JSON.stringify({ 修改前: entry.before, 修改后: entry.after }, null, 2)}</pre>
      </details>
    </div>
  );
}

/** /admin/admin/audit: the 操作日志. The 登录日志 that once sat beside it (?view=login) has its own page. */
export default function AuditPage() {
  const [params] = useSearchParams();
  if (params.get('view') === 'login') return <Navigate to="/admin/admin/loginlog" replace />;
  return <AuditList />;
}

/** 操作日志: who changed what and when, field by field in words, each object a link. */
function AuditList() {
  const list = useList({ fetchPath: '/api/audit/fetch/page', keys, toFilter, defaultSort });
  const actions = useApiQuery('/api/audit/fetch/actions', {});
  const fields = useMemo(() => filterFields(actions.data?.list ?? []), [actions.data]);
  return (
    <ListView<AuditEntry>
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      emptyText="还没有操作日志。管理员登录后台、封禁用户、调整金币、导出数据、修改配置等操作都会记录在这里。"
      exportPath="/api/audit/export"
      exportName="操作日志"
      expandable={{
        expandedRowRender: (entry) => <ExpandedEntry entry={entry} />,
        rowExpandable: (entry) => entry.before != null || entry.after != null,
      }}
    />
  );
}

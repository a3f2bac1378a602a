import type { ApiOutput } from '@appdesk/contract/types';
import { Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  type FilterField,
  idValue,
  type ListValues,
  ListView,
  rangeValue,
  type SortOrder,
  sortParams,
  TimeCell,
  useList,
} from '../../../components/list';
import './audit.css';

type AuditEntry = ApiOutput<'/api/audit/fetch/page'>['list'][number];

/** Chinese names of the actions the server records. */
const actionLabels: Record<string, string> = {
  'users.block': '封禁用户',
  'users.unblock': '解除封禁',
  'users.update.admin': '设置管理员',
  'users.update.coins': '调整金币',
  'users.generate': '批量生成账号',
  'users.update.password': '修改密码',
  'message.make': '发送消息',
  'message.update': '修改消息',
  'message.block': '屏蔽消息',
  'message.unblock': '取消屏蔽消息',
  'allocation.init': '站点初始化',
};

const allocationFields: Record<string, string> = {
  title: '标题',
  slogen: '标语',
  about: '关于我们',
  qq: '客服 QQ',
  logo: 'Logo',
  service: '客服图片',
};

function actionLabel(action: string): string {
  if (actionLabels[action]) return actionLabels[action];
  if (action.startsWith('allocation.update.')) {
    const field = action.slice('allocation.update.'.length);
    return `修改站点配置${allocationFields[field] ? `（${allocationFields[field]}）` : ''}`;
  }
  return action;
}

const targetLabels: Record<string, string> = { user: '用户', message: '消息', allocation: '站点配置' };

const keys = ['actorId', 'action', 'from', 'to'] as const;
const fields: FilterField[] = [
  { kind: 'id', name: 'actorId', label: '操作人 ID', placeholder: '例如 1', width: 120 },
  {
    kind: 'select',
    name: 'action',
    label: '操作类型',
    width: 200,
    options: [
      { value: '', label: '全部操作' },
      { value: 'users', label: '用户相关（全部）' },
      { value: 'message', label: '消息相关（全部）' },
      { value: 'allocation', label: '站点配置（全部）' },
      ...Object.entries(actionLabels).map(([value, label]) => ({ value, label: `${label}（${value}）` })),
      { value: 'allocation.update', label: '修改站点配置（allocation.update）' },
    ],
  },
  { kind: 'range', name: 'range', label: '时间' },
];

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
  {
    title: '时间',
    dataIndex: 'createdAt',
    key: 'createdAt',
    sorter: true,
    render: (v: string) => <TimeCell value={v} />,
  },
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
    render: (action: string) => (
      <Tag color={action.startsWith('users') ? 'blue' : action.startsWith('message') ? 'purple' : 'orange'}>
        {actionLabel(action)}
      </Tag>
    ),
  },
  {
    title: '对象',
    key: 'target',
    render: (_, e) => (
      <span>
        {targetLabels[e.targetType] ?? e.targetType}
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

/** /admin/admin/audit (操作日志): who changed what and when, with before/after values. */
export default function AuditPage() {
  const list = useList({ fetchPath: '/api/audit/fetch/page', keys, toFilter, defaultSort });
  return (
    <ListView<AuditEntry>
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
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

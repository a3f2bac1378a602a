import type { ApiOutput } from '@appdesk/contract/types';
import { Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  AgentCell,
  type FilterField,
  type ListValues,
  ListView,
  rangeValue,
  timeColumn,
  useList,
} from '../../../components/list';
import { LogTabs } from './LogTabs';

type LoginEntry = ApiOutput<'/api/audit/fetch/login/page'>['list'][number];

const keys = ['result', 'phone', 'from', 'to'] as const;
const results = ['all', 'success', 'failure'] as const;
type Result = (typeof results)[number];

const fields: FilterField[] = [
  {
    kind: 'select',
    name: 'result',
    label: '结果',
    width: 140,
    options: [
      { value: '', label: '全部结果' },
      { value: 'success', label: '成功' },
      { value: 'failure', label: '失败' },
    ],
  },
  { kind: 'text', name: 'phone', label: '手机号', placeholder: '完整的 11 位手机号', width: 180 },
  { kind: 'range', name: 'range', label: '时间' },
];

function toFilter(values: ListValues) {
  const result: Result = results.includes(values.result as Result) ? (values.result as Result) : 'all';
  // Only a whole phone filters (the log is searched by its index); anything else is ignored.
  const phone = values.phone && /^1[3-9]\d{9}$/.test(values.phone) ? values.phone : undefined;
  return { result, phone, ...rangeValue(values) };
}

const columns: ColumnsType<LoginEntry> = [
  // Always newest first: the log is read from the top.
  timeColumn('时间', 'createdAt', false),
  {
    title: '手机号',
    key: 'phone',
    render: (_, e) => (
      <span>
        {e.phone}
        {e.userId !== null ? <span className="list-muted"> · 用户 ID {e.userId}</span> : null}
      </span>
    ),
  },
  {
    title: '结果',
    key: 'result',
    render: (_, e) => (
      <Tooltip title={`返回码 ${e.code}`}>
        <Tag color={e.success ? 'green' : e.reason === 'locked' ? 'orange' : 'red'}>{e.reasonLabel}</Tag>
      </Tooltip>
    ),
  },
  { title: 'IP', dataIndex: 'ip', key: 'ip', render: (v: string | null) => v || <span className="list-muted">-</span> },
  { title: '设备', dataIndex: 'userAgent', key: 'userAgent', render: (v: string | null) => <AgentCell value={v} /> },
];

/** 登录日志: every sign-in attempt (success or not), newest first, by result, phone and time. */
export function LoginLog() {
  const list = useList({ fetchPath: '/api/audit/fetch/login/page', keys, toFilter });
  return (
    <ListView<LoginEntry>
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      header={<LogTabs active="login" />}
      emptyText="还没有登录记录。每一次登录尝试（成功、密码错误、被锁定、账号封禁）都会记录在这里。"
    />
  );
}

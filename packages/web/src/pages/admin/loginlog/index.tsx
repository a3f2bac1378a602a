import { loginResults } from '@appdesk/contract/constants';
import type { ApiOutput } from '@appdesk/contract/types';
import { Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type FilterField, type ListValues, ListView, rangeValue, timeColumn, useList } from '../../../components/list';
import './loginlog.css';
import { PageLink } from '../../../components/admin/PageLink';
import { phoneFilter } from '../../../components/rules';

type LoginEntry = ApiOutput<'/api/loginlog/fetch/page'>['list'][number];

const keys = ['result', 'phone', 'from', 'to'] as const;
type Result = (typeof loginResults)[number]['value'];
const resultValues = loginResults.map((r) => r.value) as readonly string[];

const fields: FilterField[] = [
  {
    kind: 'select',
    name: 'result',
    label: '结果',
    width: 140,
    // The empty value is 全部 (no filter in the URL).
    options: loginResults.map((r) => ({ value: r.value === 'all' ? '' : r.value, label: r.label })),
  },
  { kind: 'text', name: 'phone', label: '手机号', placeholder: '完整的 11 位手机号', width: 180 },
  { kind: 'range', name: 'range', label: '时间' },
];

function toFilter(values: ListValues) {
  const result: Result = resultValues.includes(values.result ?? '') ? (values.result as Result) : 'all';
  // Only a whole phone filters (the log is searched by its index); anything else is ignored.
  const phone = phoneFilter(values.phone);
  return { result, phone, ...rangeValue(values) };
}

const muted = (text = '-') => <span className="list-muted">{text}</span>;

const columns: ColumnsType<LoginEntry> = [
  // Always newest first: the log is read from the top.
  timeColumn('时间', 'createdAt', false),
  {
    title: '手机号',
    key: 'phone',
    render: (_, e) =>
      e.userId !== null ? (
        <PageLink to={`/admin/admin/users?search=${e.userId}&detail=${e.userId}`} title="在用户管理中查看">
          {e.phone}
        </PageLink>
      ) : (
        <span>{e.phone}</span>
      ),
  },
  {
    title: '结果',
    key: 'result',
    render: (_, e) => (
      <Tooltip title={`返回码 ${e.code}`}>
        <Tag color={e.success ? 'green' : e.reason === 'locked' ? 'orange' : 'red'}>
          {e.success ? '成功' : `失败：${e.reasonLabel}`}
        </Tag>
      </Tooltip>
    ),
  },
  { title: 'IP 地址', dataIndex: 'ip', key: 'ip', render: (v: string | null) => v || muted() },
  {
    title: '设备',
    key: 'device',
    render: (_, e) =>
      e.device ? (
        <Tooltip title={e.userAgent}>
          <span className="loginlog-device">{e.device}</span>
        </Tooltip>
      ) : (
        muted('未知设备')
      ),
  },
];

/** 登录日志: every sign-in attempt (success or not), newest first, by result, phone and time. */
export default function LoginLogPage() {
  const list = useList({ fetchPath: '/api/loginlog/fetch/page', keys, toFilter });
  return (
    <ListView<LoginEntry>
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      exportPath="/api/loginlog/export"
      exportName="登录日志"
      emptyText="还没有登录记录。每一次登录尝试（成功、密码错误、被锁定、账号封禁）都会记录在这里。"
    />
  );
}

import { coinReasons } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { CoinRecord } from '@appdesk/contract/types';
import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  DeltaCell,
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
import './coin.css';
import { PageLink } from '../../../components/admin/PageLink';

const keys = ['phone', 'userId', 'reason', 'direction', 'from', 'to'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'phone', label: '手机号', placeholder: '完整的 11 位手机号', width: 180 },
  { kind: 'id', name: 'userId', label: '用户 ID', placeholder: '例如 10086', width: 140 },
  {
    kind: 'select',
    name: 'reason',
    label: '原因',
    width: 140,
    options: [{ value: '', label: '全部原因' }, ...coinReasons.map(({ value, label }) => ({ value, label }))],
  },
  {
    kind: 'select',
    name: 'direction',
    label: '收支',
    width: 120,
    options: [
      { value: '', label: '收入和支出' },
      { value: 'in', label: '只看发放' },
      { value: 'out', label: '只看消耗' },
    ],
  },
  { kind: 'range', name: 'range', label: '时间' },
];

const sortColumns = ['createdAt', 'delta'] as const;
const defaultSort = { sort: sortColumns[0], order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const reason = coinReasons.find((r) => r.value === values.reason)?.value;
  const phone = values.phone?.replace(/\s/g, '') || undefined;
  const direction = (['in', 'out'] as const).find((d) => d === values.direction);
  return {
    phone,
    userId: idValue(values.userId),
    reason,
    direction,
    ...rangeValue(values),
    ...sortParams(sort, sortColumns),
  };
}

/** Who a ledger row names (masked phone and nickname), opening them in the users page's drawer. */
function UserLink({ id, phone, nickname }: { id: number; phone: string; nickname: string }) {
  return (
    <div className="coin-user">
      <PageLink
        to={`/admin/admin/users?detail=${id}`}
        title="在用户管理中查看"
        aria-label={`查看用户 ${nickname || phone}`}
      >
        {nickname || phone}
      </PageLink>
      <span className="list-muted">
        {nickname ? `${phone} · ` : ''}ID {id}
      </span>
    </div>
  );
}

const columns: ColumnsType<CoinRecord> = [
  { title: '流水 ID', dataIndex: 'id', key: 'id', width: 90 },
  {
    title: '用户',
    key: 'user',
    render: (_, r) => <UserLink id={r.userId} phone={r.userPhone} nickname={r.userNickname} />,
  },
  {
    title: '变动',
    dataIndex: 'delta',
    key: 'delta',
    sorter: true,
    align: 'right',
    render: (v: number) => <DeltaCell value={v} />,
  },
  {
    title: '变动后余额',
    dataIndex: 'balanceAfter',
    key: 'balanceAfter',
    align: 'right',
    render: (v: number) => v.toLocaleString('zh-CN'),
  },
  { title: '原因', dataIndex: 'reason', key: 'reason', render: (v: string) => labelOf(coinReasons, v) },
  {
    title: '备注',
    dataIndex: 'note',
    key: 'note',
    render: (v: string | null) =>
      v ? (
        <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 260 }}>
          {v}
        </Typography.Text>
      ) : (
        <span className="list-muted">-</span>
      ),
  },
  {
    title: '操作人',
    key: 'operator',
    render: (_, r) =>
      r.operatorId !== null && r.operatorPhone !== null ? (
        <UserLink id={r.operatorId} phone={r.operatorPhone} nickname={r.operatorNickname ?? ''} />
      ) : (
        <span className="list-muted">系统</span>
      ),
  },
  timeColumn('时间', 'createdAt'),
];

/** /admin/admin/coin (金币流水): every balance change, by phone or user id, reason and time, with Excel export. */
export default function CoinPage() {
  const list = useList({ fetchPath: '/api/coin/fetch/page', keys, toFilter, defaultSort });
  return (
    <ListView<CoinRecord>
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      emptyText="还没有金币流水。用户注册赠送、购买、兑换或管理员调整金币后，每一笔变动都会记录在这里。"
      exportPath="/api/coin/export"
      exportName="金币流水"
    />
  );
}

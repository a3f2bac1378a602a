import { channels, orderStatuses, payMethods } from '@appdesk/contract/constants';
import { fenToYuan } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Tabs, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useMemo } from 'react';
import { useApiQuery } from '../../../api/hooks';
import { appColumn } from '../../../components/admin/appField';
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
import { phoneFilter } from '../../../components/rules';
import { OrderDrawer, StatusTag } from './OrderDrawer';
import { PaymentConfigAlert } from './PaymentNotices';

type OrderRow = ApiOutput<'/api/order/fetch/page'>['list'][number];

const keys = ['status', 'payMethod', 'channel', 'phone', 'from', 'to'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'phone', label: '手机号', placeholder: '用户的 11 位手机号', width: 170 },
  {
    kind: 'select',
    name: 'payMethod',
    label: '支付方式',
    width: 130,
    options: [{ value: '', label: '全部' }, ...payMethods.map(({ value, label }) => ({ value, label }))],
  },
  {
    kind: 'select',
    name: 'channel',
    label: '渠道',
    width: 150,
    options: [{ value: '', label: '全部渠道' }, ...channels.map(({ value, label }) => ({ value, label }))],
  },
  { kind: 'range', name: 'range', label: '下单时间' },
];
const sortColumns = ['createdAt', 'amount'] as const;
const defaultSort = { sort: 'createdAt', order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const status = orderStatuses.find((s) => s.value === values.status)?.value;
  const payMethod = payMethods.find((m) => m.value === values.payMethod)?.value;
  const channel = channels.find((c) => c.value === values.channel)?.value;
  const phone = phoneFilter(values.phone);
  return {
    ...(status ? { status } : {}),
    ...(payMethod ? { payMethod } : {}),
    ...(channel ? { channel } : {}),
    ...(phone ? { phone } : {}),
    ...rangeValue(values),
    ...sortParams(sort, sortColumns),
  };
}

/** The totals of the current filter: what finance compares with the platforms' statements. */
function Totals({ filter }: { filter: ReturnType<typeof toFilter> }) {
  const {
    sort: _sort,
    order: _order,
    ...rest
  } = filter as ReturnType<typeof toFilter> & { sort?: string; order?: string };
  const totals = useApiQuery('/api/order/fetch/totals', rest, { keepPrevious: true });
  const t = totals.data;
  return (
    <Typography.Paragraph className="order-totals" data-testid="order-totals" style={{ margin: '0 0 12px' }}>
      {t ? (
        <>
          筛选结果：共 <strong>{t.count.toLocaleString('zh-CN')}</strong> 笔，金额合计{' '}
          <strong>¥{fenToYuan(t.amount)}</strong>；已支付 {t.paidCount.toLocaleString('zh-CN')} 笔 ¥
          {fenToYuan(t.paidAmount)}；已退款 {t.refundedCount.toLocaleString('zh-CN')} 笔 ¥{fenToYuan(t.refundedAmount)}
        </>
      ) : (
        '合计计算中…'
      )}
    </Typography.Paragraph>
  );
}

/** /admin/admin/order (订单管理): filters in the URL, totals for the filter, detail with timeline and actions. */
export default function OrderPage() {
  const list = useList({ fetchPath: '/api/order/fetch/page', keys, toFilter, defaultSort });
  const { update } = list;
  const detailId = idValue(list.param('detail')) ?? null;
  const setDetail = useCallback((id: number | null) => update({ detail: id ?? undefined }, true), [update]);
  const status = list.values.status ?? '';

  const columns = useMemo<ColumnsType<OrderRow>>(
    () => [
      {
        title: '订单号',
        dataIndex: 'orderNo',
        key: 'orderNo',
        render: (no: string, o) => (
          <Typography.Link onClick={() => setDetail(o.id)} style={{ fontFamily: 'monospace' }}>
            {no}
          </Typography.Link>
        ),
      },
      { title: '用户', dataIndex: 'userPhone', key: 'userPhone' },
      { title: '套餐', dataIndex: 'planName', key: 'planName' },
      appColumn<OrderRow>(),
      {
        title: '金额（元）',
        dataIndex: 'amount',
        key: 'amount',
        align: 'right',
        sorter: true,
        render: (v: number) => <strong>¥{fenToYuan(v)}</strong>,
      },
      { title: '支付方式', dataIndex: 'payMethod', key: 'payMethod', render: (v: string) => labelOf(payMethods, v) },
      { title: '渠道', dataIndex: 'channel', key: 'channel', render: (v: string) => labelOf(channels, v) },
      { title: '状态', dataIndex: 'status', key: 'status', render: (v: string) => <StatusTag status={v} /> },
      timeColumn('下单时间', 'createdAt'),
      timeColumn('支付时间', 'paidAt'),
    ],
    [setDetail],
  );

  return (
    <>
      <ListView<OrderRow>
        list={list}
        columns={columns}
        rowKey="id"
        onDetail={(o) => setDetail(o.id)}
        fields={fields}
        emptyText="还没有订单。App 用户购买会员套餐后，订单会出现在这里。"
        exportPath="/api/order/export"
        exportName="订单"
        header={
          <>
            <PaymentConfigAlert />
            <Tabs
              activeKey={status}
              items={[{ key: '', label: '全部' }, ...orderStatuses.map((s) => ({ key: s.value, label: s.label }))]}
              onChange={(key) => update({ status: key || undefined })}
            />
            <Totals filter={list.filter as ReturnType<typeof toFilter>} />
          </>
        }
      />
      <OrderDrawer id={detailId} onClose={() => setDetail(null)} />
    </>
  );
}

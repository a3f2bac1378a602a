import { GiftOutlined } from '@ant-design/icons';
import { exchangeKinds, exchangeStatuses } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Space, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiQuery } from '../../../api/hooks';
import { Allowed } from '../../../components/admin/Allowed';
import {
  BatchBar,
  type BatchButton,
  useAllowedBatches,
  useBatchRun,
  useSelection,
} from '../../../components/admin/BatchBar';
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
import { phoneFilter, rules } from '../../../components/rules';
import { useGrants } from '../../../state/grants';
import { BatchShipModal } from './BatchShip';
import { CompensateModal } from './Compensate';
import { CancelModal, ReceiverPhone, ShipModal } from './RecordActions';

type RecordRow = ApiOutput<'/api/exchange/record/fetch/page'>['list'][number];

const keys = ['itemId', 'kind', 'status', 'phone', 'from', 'to'] as const;
const sortColumns = ['createdAt', 'cost'] as const;
const defaultSort = { sort: 'createdAt', order: 'descend' } as const;
const statusColor: Record<string, string> = { done: 'green', waiting: 'orange', shipped: 'blue', cancelled: 'default' };

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const kind = exchangeKinds.find((k) => k.value === values.kind)?.value;
  const status = exchangeStatuses.find((s) => s.value === values.status)?.value;
  const itemId = idValue(values.itemId);
  const phone = phoneFilter(values.phone);
  return {
    ...(itemId ? { itemId } : {}),
    ...(kind ? { kind } : {}),
    ...(status ? { status } : {}),
    ...(phone ? { phone } : {}),
    ...rangeValue(values),
    ...sortParams(sort, sortColumns),
  };
}

const batchButtons: BatchButton[] = [
  {
    label: '批量取消',
    path: '/api/exchange/record/cancel/batch',
    danger: true,
    text: { name: 'note', label: '取消原因（金币和库存逐条退回）', rule: rules.reason },
  },
];

/** /admin/admin/exchangerecord (兑换记录): filters in the URL, shipping, cancelling with refunds, export. */
export default function ExchangeRecordPage() {
  const list = useList({ fetchPath: '/api/exchange/record/fetch/page', keys, toFilter, defaultSort });
  const { canCall } = useGrants();
  // The items filter's choices are 兑换商品's list: without reading it the filter offers none.
  const items = useApiQuery(
    '/api/exchange/item/fetch/page',
    { size: 200, sort: 'sort', order: 'ascend' },
    { enabled: canCall('/api/exchange/item/fetch/page') },
  );
  const [shipping, setShipping] = useState<RecordRow | null>(null);
  const [cancelling, setCancelling] = useState<RecordRow | null>(null);
  const [compensating, setCompensating] = useState(false);
  const status = list.values.status ?? '';
  const selection = useSelection<RecordRow>((r) => `${r.recordNo}（${r.itemName}）`);
  const [batchShipping, setBatchShipping] = useState(false);
  const shipRun = useBatchRun('兑换记录', selection.labelOf);
  const canShip = canCall('/api/exchange/record/ship');
  const canCancel = canCall('/api/exchange/record/cancel');
  const batchShip = canCall('/api/exchange/record/ship/batch');
  const batches = useAllowedBatches(batchButtons);

  const fields = useMemo<FilterField[]>(
    () => [
      { kind: 'text', name: 'phone', label: '手机号', placeholder: '用户的 11 位手机号', width: 170 },
      {
        kind: 'select',
        name: 'itemId',
        label: '商品',
        width: 180,
        options: [
          { value: '', label: '全部商品' },
          ...(items.data?.list ?? []).map((i) => ({ value: String(i.id), label: i.name })),
        ],
      },
      {
        kind: 'select',
        name: 'kind',
        label: '类型',
        width: 130,
        options: [{ value: '', label: '全部类型' }, ...exchangeKinds.map((k) => ({ value: k.value, label: k.label }))],
      },
      { kind: 'range', name: 'range', label: '兑换时间' },
    ],
    [items.data],
  );

  const columns = useMemo<ColumnsType<RecordRow>>(
    () => [
      {
        title: '兑换单号',
        dataIndex: 'recordNo',
        key: 'recordNo',
        render: (v: string) => <span style={{ fontFamily: 'monospace' }}>{v}</span>,
      },
      { title: '用户', dataIndex: 'userPhone', key: 'userPhone' },
      {
        title: '商品',
        key: 'item',
        render: (_, r) => (
          <Space orientation="vertical" size={0}>
            <strong>{r.itemName}</strong>
            <span className="list-muted">{labelOf(exchangeKinds, r.kind)}</span>
            {r.note && r.status !== 'cancelled' ? <span className="list-muted">{r.note}</span> : null}
          </Space>
        ),
      },
      {
        title: '金币',
        dataIndex: 'cost',
        key: 'cost',
        sorter: true,
        align: 'right',
        render: (v: number) => v.toLocaleString('zh-CN'),
      },
      {
        title: '状态',
        dataIndex: 'status',
        key: 'status',
        render: (v: string) => <Tag color={statusColor[v]}>{labelOf(exchangeStatuses, v)}</Tag>,
      },
      {
        title: '发放 / 收货',
        key: 'delivery',
        render: (_, r) =>
          r.kind === 'physical' ? (
            <div style={{ maxWidth: 260, fontSize: 13 }}>
              <div>
                {r.receiverName} <ReceiverPhone record={r} />
              </div>
              <div className="list-muted">{r.address}</div>
              {r.trackingNo ? (
                <div>
                  {r.carrier} {r.trackingNo}
                </div>
              ) : null}
            </div>
          ) : r.code ? (
            <Typography.Text copyable code>
              {r.code}
            </Typography.Text>
          ) : (
            <span className="list-muted">已自动发放</span>
          ),
      },
      timeColumn('兑换时间', 'createdAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, r) =>
          (r.status === 'waiting' || r.status === 'shipped') && (canShip || canCancel) ? (
            <Space size={0}>
              {canShip ? (
                <Button type="link" size="small" onClick={() => setShipping(r)}>
                  {r.status === 'waiting' ? '发货' : '改单号'}
                </Button>
              ) : null}
              {canCancel ? (
                <Button type="link" size="small" danger onClick={() => setCancelling(r)}>
                  取消
                </Button>
              ) : null}
            </Space>
          ) : r.status === 'cancelled' && r.note ? (
            // Beside 详情, which every row has: the reason it was cancelled, or nothing.
            <span className="list-muted">{r.note}</span>
          ) : null,
      },
    ],
    [canShip, canCancel],
  );

  return (
    <>
      <ListView<RecordRow>
        list={list}
        columns={columns}
        rowKey="id"
        detailTitle="兑换记录详情"
        fields={fields}
        emptyText="还没有兑换记录。用户在 App 的积分商城用金币兑换商品后，记录会出现在这里。"
        exportPath="/api/exchange/record/export"
        exportName="兑换记录"
        actions={
          <Allowed path="/api/exchange/record/make">
            <Button icon={<GiftOutlined aria-hidden />} onClick={() => setCompensating(true)}>
              补发
            </Button>
          </Allowed>
        }
        header={
          <>
            <Tabs
              activeKey={status}
              items={[{ key: '', label: '全部' }, ...exchangeStatuses.map((s) => ({ key: s.value, label: s.label }))]}
              onChange={(key) => list.update({ status: key || undefined })}
            />
            <BatchBar selection={selection} noun="兑换记录" buttons={batchButtons}>
              {batchShip ? (
                <Button size="small" type="primary" onClick={() => setBatchShipping(true)}>
                  批量发货
                </Button>
              ) : null}
            </BatchBar>
          </>
        }
        rowSelection={batchShip || batches.length ? selection.rowSelection : undefined}
      />
      <BatchShipModal
        records={selection.rows}
        open={batchShipping}
        run={shipRun.mutation}
        onClose={() => setBatchShipping(false)}
        onDone={selection.clear}
      />
      {shipRun.dialog}
      <ShipModal record={shipping} onClose={() => setShipping(null)} />
      <CancelModal record={cancelling} onClose={() => setCancelling(null)} />
      <CompensateModal open={compensating} onClose={() => setCompensating(false)} />
    </>
  );
}

import { PlusOutlined } from '@ant-design/icons';
import { fenToYuan } from '@appdesk/contract/format';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { Allowed } from '../../../components/admin/Allowed';
import { appColumn } from '../../../components/admin/appField';
import { BatchBar, type BatchButton, useAllowedBatches, useSelection } from '../../../components/admin/BatchBar';
import {
  ConfirmLink,
  type FilterField,
  flagValue,
  type ListValues,
  ListView,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { untilSettled } from '../../../components/writes';
import { useGrants } from '../../../state/grants';
import { PlanEditor } from './PlanEditor';

type PlanRow = ApiOutput<'/api/plan/fetch/page'>['list'][number];

const keys = ['onSale'] as const;
const fields: FilterField[] = [
  {
    kind: 'select',
    name: 'onSale',
    label: '状态',
    width: 120,
    options: [
      { value: '', label: '全部' },
      { value: 'true', label: '在售' },
      { value: 'false', label: '已下架' },
    ],
  },
];
const sortColumns = ['sort', 'price', 'createdAt'] as const;
const defaultSort = { sort: 'sort', order: 'ascend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const onSale = flagValue(values.onSale);
  return { ...(onSale === undefined ? {} : { onSale }), ...sortParams(sort, sortColumns) };
}

export const durationText = (days: number | null) => (days === null ? '永久' : `${days} 天`);

const batchButtons: BatchButton[] = [
  { label: '批量上架', path: '/api/plan/update/onsale/batch', params: { onSale: true } },
  { label: '批量下架', path: '/api/plan/update/onsale/batch', params: { onSale: false }, danger: true },
];

/** /admin/admin/plan (会员套餐): VIP plans per app, their prices in yuan, what they grant, on sale or not. */
export default function PlanPage() {
  const list = useList({ fetchPath: '/api/plan/fetch/page', keys, toFilter, defaultSort });
  const selection = useSelection<PlanRow>((p) => p.name);
  const batches = useAllowedBatches(batchButtons);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const update = useApiAction('/api/plan/update');
  // Without 会员套餐 · 修改 the list is read-only (详情 still opens).
  const writable = useGrants().canCall('/api/plan/update');

  const columns = useMemo<ColumnsType<PlanRow>>(
    () => [
      {
        title: '套餐',
        key: 'name',
        render: (_, p) => (
          <Space size={4} wrap>
            {writable ? (
              <Typography.Link strong onClick={() => setEditing(p.id)}>
                {p.name}
              </Typography.Link>
            ) : (
              <Typography.Text strong>{p.name}</Typography.Text>
            )}
            {p.badge ? <Tag color="volcano">{p.badge}</Tag> : null}
          </Space>
        ),
      },
      appColumn<PlanRow>(),
      {
        title: '售价（元）',
        key: 'price',
        dataIndex: 'price',
        sorter: true,
        align: 'right',
        render: (_, p) => (
          <Space size={6}>
            <strong>¥{fenToYuan(p.price)}</strong>
            {p.originalPrice ? <del className="list-muted">¥{fenToYuan(p.originalPrice)}</del> : null}
          </Space>
        ),
      },
      { title: '时长', dataIndex: 'durationDays', key: 'durationDays', render: durationText },
      {
        title: '赠送金币',
        dataIndex: 'bonusCoins',
        key: 'bonusCoins',
        align: 'right',
        render: (v: number) => v.toLocaleString('zh-CN'),
      },
      {
        title: '内购商品 ID',
        key: 'products',
        render: (_, p) => (
          <div className="list-muted" style={{ fontSize: 12 }}>
            <div>iOS：{p.iosProductId || '-'}</div>
            <div>Android：{p.androidProductId || '-'}</div>
          </div>
        ),
      },
      { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true, align: 'right' },
      {
        title: '状态',
        dataIndex: 'onSale',
        key: 'onSale',
        render: (v: boolean) => (v ? <Tag color="green">在售</Tag> : <Tag>已下架</Tag>),
      },
      timeColumn('最近修改', 'updatedAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, p) => (
          <Space size={0}>
            {writable ? (
              <Button type="link" size="small" onClick={() => setEditing(p.id)}>
                编辑
              </Button>
            ) : null}
            <ConfirmLink
              title={p.onSale ? '下架套餐' : '上架套餐'}
              description={
                p.onSale ? '下架后 App 不再展示该套餐，已有订单不受影响。' : '上架后 App 的会员页会展示该套餐。'
              }
              okText={p.onSale ? '下架' : '上架'}
              path="/api/plan/update"
              onConfirm={() => untilSettled(update.mutate, { id: p.id, onSale: !p.onSale })}
            >
              {p.onSale ? '下架' : '上架'}
            </ConfirmLink>
          </Space>
        ),
      },
    ],
    [update.mutate, writable],
  );

  return (
    <>
      <ListView<PlanRow>
        exportPath="/api/plan/export"
        exportName="会员套餐"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有会员套餐。点击“新建套餐”设置价格、时长和赠送金币，上架后 App 的会员页会展示。"
        header={<BatchBar selection={selection} noun="套餐" buttons={batchButtons} />}
        rowSelection={batches.length ? selection.rowSelection : undefined}
        actions={
          <Allowed path="/api/plan/make">
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建套餐
            </Button>
          </Allowed>
        }
      />
      <PlanEditor target={editing} onClose={() => setEditing(null)} />
    </>
  );
}

import { PlusOutlined } from '@ant-design/icons';
import { iapProductTypes, platforms } from '@appdesk/contract/constants';
import { fenToYuan } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
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
import { IapEditor } from './IapEditor';

type Row = ApiOutput<'/api/iap/fetch/page'>['list'][number];

const all = (label: string, list: readonly { value: string; label: string }[]) => [
  { value: '', label },
  ...list.map((o) => ({ value: o.value, label: o.label })),
];
const keys = ['platform', 'type', 'enabled'] as const;
const fields: FilterField[] = [
  { kind: 'select', name: 'platform', label: '平台', width: 120, options: all('全部平台', platforms) },
  { kind: 'select', name: 'type', label: '类型', width: 150, options: all('全部类型', iapProductTypes) },
  {
    kind: 'select',
    name: 'enabled',
    label: '状态',
    width: 110,
    options: [
      { value: '', label: '全部' },
      { value: 'true', label: '启用' },
      { value: 'false', label: '停用' },
    ],
  },
];
const sortColumns = ['createdAt', 'price'] as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const pick = <V extends string>(list: readonly { value: V }[], value: unknown) =>
    list.find((o) => o.value === value)?.value;
  const platform = pick(platforms, values.platform);
  const type = pick(iapProductTypes, values.type);
  const enabled = flagValue(values.enabled);
  return {
    ...(platform ? { platform } : {}),
    ...(type ? { type } : {}),
    ...(enabled === undefined ? {} : { enabled }),
    ...sortParams(sort, sortColumns),
  };
}

/** What a product grants, in words. */
export const grantText = (p: { vipDays: number; coins: number }) =>
  [p.vipDays ? `会员 ${p.vipDays} 天` : '', p.coins ? `${p.coins.toLocaleString('zh-CN')} 金币` : '']
    .filter(Boolean)
    .join(' + ');

const batchButtons: BatchButton[] = [
  { label: '批量启用', path: '/api/iap/update/enabled/batch', params: { enabled: true } },
  { label: '批量停用', path: '/api/iap/update/enabled/batch', params: { enabled: false }, danger: true },
];

/** /admin/admin/iap (内购商品): store products per app and platform, their price and what they grant. */
export default function IapPage() {
  const list = useList({ fetchPath: '/api/iap/fetch/page', keys, toFilter });
  const selection = useSelection<Row>((p) => `${p.name}（${p.productId}）`);
  const batches = useAllowedBatches(batchButtons);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const update = useApiAction('/api/iap/update');
  // Without 内购商品 · 修改 the list is read-only (详情 still opens).
  const writable = useGrants().canCall('/api/iap/update');

  const columns = useMemo<ColumnsType<Row>>(
    () => [
      {
        title: '商品',
        key: 'name',
        render: (_, p) => (
          <div>
            {writable ? (
              <Typography.Link strong onClick={() => setEditing(p.id)}>
                {p.name}
              </Typography.Link>
            ) : (
              <Typography.Text strong>{p.name}</Typography.Text>
            )}
            <div className="list-muted" style={{ fontSize: 12, wordBreak: 'break-all' }}>
              {p.productId}
            </div>
          </div>
        ),
      },
      appColumn<Row>(),
      { title: '平台', dataIndex: 'platform', key: 'platform', render: (v: string) => labelOf(platforms, v) },
      { title: '类型', dataIndex: 'type', key: 'type', render: (v: string) => labelOf(iapProductTypes, v) },
      {
        title: '价格（元）',
        dataIndex: 'price',
        key: 'price',
        sorter: true,
        align: 'right',
        render: (v: number) => <strong>¥{fenToYuan(v)}</strong>,
      },
      { title: '发放', key: 'grant', render: (_, p) => grantText(p) },
      {
        title: '状态',
        dataIndex: 'enabled',
        key: 'enabled',
        render: (v: boolean) => (v ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
      },
      timeColumn('创建时间', 'createdAt'),
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
              title={p.enabled ? '停用商品' : '启用商品'}
              description={
                p.enabled ? '停用后，这个商品的新购买记为已拒绝，不再发放。' : '启用后，这个商品的购买验证通过即发放。'
              }
              okText={p.enabled ? '停用' : '启用'}
              path="/api/iap/update"
              onConfirm={() => untilSettled(update.mutate, { id: p.id, enabled: !p.enabled })}
            >
              {p.enabled ? '停用' : '启用'}
            </ConfirmLink>
          </Space>
        ),
      },
    ],
    [update.mutate, writable],
  );

  return (
    <>
      <ListView<Row>
        exportPath="/api/iap/export"
        exportName="内购商品"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有内购商品。点击“新建商品”填写 App Store 或 Google Play 的商品 ID、价格和发放的会员天数或金币。"
        header={<BatchBar selection={selection} noun="商品" buttons={batchButtons} />}
        rowSelection={batches.length ? selection.rowSelection : undefined}
        actions={
          <Allowed path="/api/iap/make">
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建商品
            </Button>
          </Allowed>
        }
      />
      <IapEditor target={editing} onClose={() => setEditing(null)} />
    </>
  );
}

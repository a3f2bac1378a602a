import { GiftOutlined, PlusOutlined } from '@ant-design/icons';
import { exchangeKinds } from '@appdesk/contract/constants';
import { formatDateTime } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Image, Space, Tag, Typography } from 'antd';
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
import { CodeImport } from './CodeImport';
import { CopyItem, type CopySource } from './CopyItem';
import { ItemEditor } from './ItemEditor';

type ItemRow = ApiOutput<'/api/exchange/item/fetch/page'>['list'][number];

const keys = ['kind', 'enabled'] as const;
const fields: FilterField[] = [
  {
    kind: 'select',
    name: 'kind',
    label: '类型',
    width: 130,
    options: [{ value: '', label: '全部类型' }, ...exchangeKinds.map((k) => ({ value: k.value, label: k.label }))],
  },
  {
    kind: 'select',
    name: 'enabled',
    label: '状态',
    width: 120,
    options: [
      { value: '', label: '全部' },
      { value: 'true', label: '已上架' },
      { value: 'false', label: '已下架' },
    ],
  },
];
const sortColumns = ['sort', 'costCoins', 'createdAt'] as const;
const defaultSort = { sort: 'sort', order: 'ascend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const kind = exchangeKinds.find((k) => k.value === values.kind)?.value;
  const enabled = flagValue(values.enabled);
  return { ...(kind ? { kind } : {}), ...(enabled === undefined ? {} : { enabled }), ...sortParams(sort, sortColumns) };
}

/** The place of a picture an item does not have: the theme's muted surface (light or dark), a gift inside. */
const noImage = (
  <span
    aria-hidden="true"
    style={{
      display: 'inline-flex',
      width: 44,
      height: 44,
      alignItems: 'center',
      justifyContent: 'center',
      borderRadius: 4,
      background: 'var(--app-surface-muted)',
      border: '1px solid var(--app-border)',
      boxSizing: 'border-box',
      color: 'var(--app-text-tertiary)',
      fontSize: 20,
    }}
  >
    <GiftOutlined />
  </span>
);

const kindColor: Record<string, string> = { vip_days: 'gold', coins: 'orange', physical: 'blue', code: 'purple' };

/** What an item gives, in words. */
export function grantText(kind: string, value: number): string {
  if (kind === 'vip_days') return `会员 ${value.toLocaleString('zh-CN')} 天`;
  if (kind === 'coins') return `${value.toLocaleString('zh-CN')} 金币`;
  return kind === 'code' ? '一个兑换码' : '实物（需发货）';
}

function windowText(i: ItemRow): string {
  if (!i.startsAt && !i.endsAt) return '不限';
  return `${i.startsAt ? formatDateTime(i.startsAt) : '现在'} 至 ${i.endsAt ? formatDateTime(i.endsAt) : '不限'}`;
}

const batchButtons: BatchButton[] = [
  { label: '批量上架', path: '/api/exchange/item/update/enabled/batch', params: { enabled: true } },
  { label: '批量下架', path: '/api/exchange/item/update/enabled/batch', params: { enabled: false }, danger: true },
];

/** /admin/admin/exchange (兑换商品): what users can redeem with coins, its stock, limit and window. */
export default function ExchangePage() {
  const list = useList({ fetchPath: '/api/exchange/item/fetch/page', keys, toFilter, defaultSort });
  const selection = useSelection<ItemRow>((i) => i.name);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [importing, setImporting] = useState<{ id: number; name: string } | null>(null);
  const [copying, setCopying] = useState<CopySource | null>(null);
  const update = useApiAction('/api/exchange/item/update');
  const batches = useAllowedBatches(batchButtons);
  // Every change of an item is 兑换商品 · 修改: without it the list is read-only (详情 still opens).
  const writable = useGrants().canCall('/api/exchange/item/update');

  const columns = useMemo<ColumnsType<ItemRow>>(
    () => [
      {
        title: '商品',
        key: 'name',
        render: (_, i) => (
          <Space size={10}>
            {i.image ? (
              <Image
                src={i.image}
                alt={i.name}
                width={44}
                height={44}
                style={{ objectFit: 'cover', borderRadius: 4 }}
              />
            ) : (
              noImage
            )}
            <Space orientation="vertical" size={0}>
              {writable ? (
                <Typography.Link strong onClick={() => setEditing(i.id)}>
                  {i.name}
                </Typography.Link>
              ) : (
                <Typography.Text strong>{i.name}</Typography.Text>
              )}
              <span className="list-muted">{grantText(i.kind, i.value)}</span>
            </Space>
          </Space>
        ),
      },
      appColumn<ItemRow>(),
      {
        title: '类型',
        dataIndex: 'kind',
        key: 'kind',
        render: (v: string) => <Tag color={kindColor[v]}>{labelOf(exchangeKinds, v)}</Tag>,
      },
      {
        title: '所需金币',
        dataIndex: 'costCoins',
        key: 'costCoins',
        sorter: true,
        align: 'right',
        render: (v: number) => <strong>{v.toLocaleString('zh-CN')}</strong>,
      },
      {
        title: '库存',
        dataIndex: 'stock',
        key: 'stock',
        align: 'right',
        render: (v: number | null) =>
          v === null ? '不限' : v === 0 ? <Tag color="red">已兑完</Tag> : v.toLocaleString('zh-CN'),
      },
      { title: '已兑换', dataIndex: 'redeemed', key: 'redeemed', align: 'right' },
      {
        title: '每人限兑',
        dataIndex: 'perUserLimit',
        key: 'perUserLimit',
        align: 'right',
        render: (v: number) => (v ? `${v} 次` : '不限'),
      },
      { title: '兑换时间', key: 'window', render: (_, i) => <span className="list-muted">{windowText(i)}</span> },
      { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true, align: 'right' },
      {
        title: '状态',
        dataIndex: 'enabled',
        key: 'enabled',
        render: (v: boolean) => (v ? <Tag color="green">已上架</Tag> : <Tag>已下架</Tag>),
      },
      timeColumn('创建时间', 'createdAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, i) =>
          writable ? (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => setEditing(i.id)}>
                编辑
              </Button>
              <Button type="link" size="small" onClick={() => setCopying({ id: i.id, name: i.name, kind: i.kind })}>
                复制
              </Button>
              {i.kind === 'code' ? (
                <Button type="link" size="small" onClick={() => setImporting({ id: i.id, name: i.name })}>
                  导入兑换码
                </Button>
              ) : null}
              <ConfirmLink
                title={i.enabled ? '下架商品' : '上架商品'}
                description={
                  i.enabled ? '下架后 App 不再展示，已兑换的记录不受影响。' : '上架后 App 的积分商城会展示该商品。'
                }
                okText={i.enabled ? '下架' : '上架'}
                onConfirm={() => untilSettled(update.mutate, { id: i.id, enabled: !i.enabled })}
              >
                {i.enabled ? '下架' : '上架'}
              </ConfirmLink>
            </Space>
          ) : null,
      },
    ],
    [update.mutate, writable],
  );

  return (
    <>
      <ListView<ItemRow>
        exportPath="/api/exchange/item/export"
        exportName="兑换商品"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有兑换商品。点击“新建商品”添加会员天数、金币、兑换码或实物，上架后用户可用金币兑换。"
        header={<BatchBar selection={selection} noun="商品" buttons={batchButtons} />}
        rowSelection={batches.length ? selection.rowSelection : undefined}
        actions={
          <Allowed path="/api/exchange/item/make">
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建商品
            </Button>
          </Allowed>
        }
      />
      <ItemEditor target={editing} onClose={() => setEditing(null)} />
      <CodeImport item={importing} onClose={() => setImporting(null)} />
      <CopyItem source={copying} onClose={() => setCopying(null)} onCopied={setEditing} />
    </>
  );
}

import { iapEnvironments, iapRecordStatuses, platforms } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Alert, Typography } from 'antd';
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
import { environmentLabel, verificationNotice } from './labels';
import { RecordDrawer, RecordStatus } from './RecordDrawer';

type Row = ApiOutput<'/api/iaprecord/fetch/page'>['list'][number];

const all = (label: string, list: readonly { value: string; label: string }[]) => [
  { value: '', label },
  ...list.map((o) => ({ value: o.value, label: o.label })),
];
const keys = ['platform', 'environment', 'status', 'productId', 'phone', 'from', 'to'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'phone', label: '手机号', placeholder: '用户的 11 位手机号', width: 170 },
  { kind: 'text', name: 'productId', label: '商品 ID', placeholder: '完整的商品 ID', width: 220 },
  { kind: 'select', name: 'platform', label: '平台', width: 120, options: all('全部平台', platforms) },
  { kind: 'select', name: 'environment', label: '环境', width: 130, options: all('全部环境', iapEnvironments) },
  { kind: 'select', name: 'status', label: '状态', width: 120, options: all('全部状态', iapRecordStatuses) },
  { kind: 'range', name: 'range', label: '记录时间' },
];

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const pick = <V extends string>(list: readonly { value: V }[], value: unknown) =>
    list.find((o) => o.value === value)?.value;
  const platform = pick(platforms, values.platform);
  const environment = pick(iapEnvironments, values.environment);
  const status = pick(iapRecordStatuses, values.status);
  const phone = phoneFilter(values.phone);
  const productId = values.productId?.trim() || undefined;
  return {
    ...(platform ? { platform } : {}),
    ...(environment ? { environment } : {}),
    ...(status ? { status } : {}),
    ...(phone ? { phone } : {}),
    ...(productId ? { productId } : {}),
    ...rangeValue(values),
    ...sortParams(sort, ['createdAt'] as const),
  };
}

/** Which stores the server can verify: unverified receipts stay pending, and the page says why. */
function VerificationNotice() {
  const config = useApiQuery('/api/iaprecord/fetch/config', {});
  const c = config.data;
  if (!c) return null;
  return (
    <Alert
      style={{ marginBottom: 12 }}
      type={c.apple && c.google ? 'info' : 'warning'}
      showIcon
      title={verificationNotice(c)}
    />
  );
}

/** /admin/admin/iaprecord (内购记录): every receipt, its verification result, what it granted. */
export default function IaprecordPage() {
  const list = useList({ fetchPath: '/api/iaprecord/fetch/page', keys, toFilter });
  const { update } = list;
  const detailId = idValue(list.param('detail')) ?? null;
  const setDetail = useCallback((id: number | null) => update({ detail: id ?? undefined }, true), [update]);

  const columns = useMemo<ColumnsType<Row>>(
    () => [
      {
        title: '交易号',
        key: 'transactionId',
        render: (_, r) => (
          <Typography.Link onClick={() => setDetail(r.id)} style={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {r.transactionId ?? `记录 #${r.id}`}
          </Typography.Link>
        ),
      },
      { title: '用户', dataIndex: 'userPhone', key: 'userPhone', render: (v: string | null) => v ?? '-' },
      {
        title: '商品',
        key: 'product',
        render: (_, r) => (
          <div>
            {r.productName ?? '-'}
            <div className="list-muted" style={{ fontSize: 12, wordBreak: 'break-all' }}>
              {r.productId || '-'}
            </div>
          </div>
        ),
      },
      appColumn<Row>(),
      { title: '平台', dataIndex: 'platform', key: 'platform', render: (v: string) => labelOf(platforms, v) },
      {
        title: '环境',
        dataIndex: 'environment',
        key: 'environment',
        render: (v: string | null) => environmentLabel(v),
      },
      {
        title: '状态',
        key: 'status',
        render: (_, r) => (
          <div>
            <RecordStatus status={r.status} />
            {r.reason && r.status !== 'granted' ? (
              <div className="list-muted" style={{ fontSize: 12, maxWidth: 260 }}>
                {r.reason}
              </div>
            ) : null}
          </div>
        ),
      },
      timeColumn('记录时间', 'createdAt'),
    ],
    [setDetail],
  );

  return (
    <>
      <ListView<Row>
        exportPath="/api/iaprecord/export"
        exportName="内购记录"
        list={list}
        columns={columns}
        rowKey="id"
        onDetail={(r) => setDetail(r.id)}
        fields={fields}
        header={<VerificationNotice />}
        emptyText="还没有内购记录。App 提交 App Store 或 Google Play 的购买凭证后，验证结果和发放情况会出现在这里。"
      />
      <RecordDrawer id={detailId} onClose={() => setDetail(null)} />
    </>
  );
}

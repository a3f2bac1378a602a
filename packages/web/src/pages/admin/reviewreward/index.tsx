import { channels, reviewStatuses } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Image, Space, Tabs, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { AppName } from '../../../components/admin/appField';
import { BatchBar, type BatchButton, useAllowedBatches, useSelection } from '../../../components/admin/BatchBar';
import {
  ConfirmLink,
  type FilterField,
  type ListValues,
  ListView,
  rangeValue,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { phoneFilter, rules } from '../../../components/rules';
import { untilSettled } from '../../../components/writes';
import { useCurrentApp } from '../../../state/apps';
import { useGrants } from '../../../state/grants';
import { RejectModal, RewardSetting } from './ReviewActions';

type ClaimRow = ApiOutput<'/api/reviewreward/fetch/page'>['list'][number];

const keys = ['status', 'store', 'phone', 'from', 'to'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'phone', label: '手机号', placeholder: '用户的 11 位手机号', width: 170 },
  {
    kind: 'select',
    name: 'store',
    label: '商店',
    width: 150,
    options: [{ value: '', label: '全部商店' }, ...channels.map(({ value, label }) => ({ value, label }))],
  },
  { kind: 'range', name: 'range', label: '申请时间' },
];
const statusColor: Record<string, string> = { pending: 'orange', approved: 'green', rejected: 'red' };

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const status = reviewStatuses.find((s) => s.value === values.status)?.value;
  const store = channels.find((c) => c.value === values.store)?.value;
  const phone = phoneFilter(values.phone);
  return {
    ...(status ? { status } : {}),
    ...(store ? { store } : {}),
    ...(phone ? { phone } : {}),
    ...rangeValue(values),
    ...sortParams(sort, ['createdAt'] as const),
  };
}

const batchButtons: BatchButton[] = [
  { label: '批量通过', path: '/api/reviewreward/approve/batch' },
  {
    label: '批量驳回',
    path: '/api/reviewreward/reject/batch',
    danger: true,
    text: { name: 'reason', label: '驳回原因（用户会收到）', rule: rules.reason },
  },
];

/** /admin/admin/reviewreward (好评奖励): screenshots large, approve with the set coins or reject with a reason. */
export default function ReviewRewardPage() {
  const list = useList({ fetchPath: '/api/reviewreward/fetch/page', keys, toFilter });
  const selection = useSelection<ClaimRow>((c) => `${c.userPhone}（${labelOf(channels, c.store)}）`);
  const batches = useAllowedBatches(batchButtons);
  const approve = useApiAction('/api/reviewreward/approve', { refreshes: ['/api/'] });
  // 通过与驳回 is 好评奖励 · 审核: without it the list only shows where each claim stands.
  const canReview = useGrants().canCall('/api/reviewreward/approve');
  const [rejecting, setRejecting] = useState<ClaimRow | null>(null);
  const currentApp = useCurrentApp();
  const status = list.values.status ?? '';

  const columns = useMemo<ColumnsType<ClaimRow>>(
    () => [
      {
        title: '评价截图',
        dataIndex: 'screenshot',
        key: 'screenshot',
        render: (src: string) => (
          <Image src={src} alt="评价截图" width={64} height={96} style={{ objectFit: 'cover', borderRadius: 4 }} />
        ),
      },
      { title: '用户', dataIndex: 'userPhone', key: 'userPhone' },
      {
        title: '应用 / 商店',
        key: 'store',
        render: (_, c) => (
          <Space orientation="vertical" size={0}>
            <AppName code={c.app} />
            <span className="list-muted">{labelOf(channels, c.store)}</span>
          </Space>
        ),
      },
      {
        title: '状态',
        dataIndex: 'status',
        key: 'status',
        render: (v: string) => <Tag color={statusColor[v]}>{labelOf(reviewStatuses, v)}</Tag>,
      },
      {
        title: '结果',
        key: 'result',
        render: (_, c) =>
          c.status === 'approved' ? (
            <span>+{c.coins} 金币</span>
          ) : c.status === 'rejected' ? (
            <span className="list-muted">{c.reason}</span>
          ) : (
            <span className="list-muted">-</span>
          ),
      },
      { title: '审核人', dataIndex: 'reviewerName', key: 'reviewerName', render: (v: string | null) => v ?? '-' },
      timeColumn('申请时间', 'createdAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, c) =>
          c.status === 'approved' ? (
            <span className="list-muted">已发放</span>
          ) : !canReview ? null : (
            <Space size={0}>
              <ConfirmLink
                title={c.status === 'rejected' ? '复核通过' : '通过申请'}
                description="按当前设置发放金币，用户会收到站内消息。"
                okText="通过"
                path="/api/reviewreward/approve"
                onConfirm={() => untilSettled(approve.mutate, { id: c.id })}
              >
                通过
              </ConfirmLink>
              {c.status === 'pending' ? (
                <Button type="link" size="small" danger onClick={() => setRejecting(c)}>
                  驳回
                </Button>
              ) : null}
            </Space>
          ),
      },
    ],
    [approve.mutate, canReview],
  );

  return (
    <>
      <ListView<ClaimRow>
        exportPath="/api/reviewreward/export"
        exportName="好评奖励"
        list={list}
        columns={columns}
        rowKey="id"
        detailTitle="好评奖励申请详情"
        fields={fields}
        emptyText="还没有好评奖励申请。用户在 App 中上传商店好评截图后，申请会出现在这里等待审核。"
        header={
          <>
            <Tabs
              activeKey={status}
              items={[{ key: '', label: '全部' }, ...reviewStatuses.map((s) => ({ key: s.value, label: s.label }))]}
              onChange={(key) => list.update({ status: key || undefined })}
            />
            {/* A new current app starts the setting over in that app. */}
            <RewardSetting key={currentApp ?? ''} />
            <BatchBar selection={selection} noun="申请" buttons={batchButtons} />
          </>
        }
        rowSelection={batches.length ? selection.rowSelection : undefined}
      />
      <RejectModal claim={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}

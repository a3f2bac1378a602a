import { PlusOutlined } from '@ant-design/icons';
import { channels, platforms, versionStatuses } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Progress, Space, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { appColumn } from '../../../components/admin/appField';
import { BatchBar, type BatchButton, useAllowedBatches, useSelection } from '../../../components/admin/BatchBar';
import {
  type FilterField,
  type ListValues,
  ListView,
  RowActions,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { formatSize } from '../../../components/size';
import { untilSettled } from '../../../components/writes';
import { CopyModal } from './CopyModal';
import { ChannelMatrix, VersionStats } from './Overview';
import { statusColor } from './status';
import { VersionEditor } from './VersionEditor';
import './version.css';
import { useGrants } from '../../../state/grants';

type Release = ApiOutput<'/api/version/fetch/page'>['list'][number];

const keys = ['search', 'platform', 'channel', 'status'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '版本名', placeholder: '例如 2.0', width: 140 },
  {
    kind: 'select',
    name: 'platform',
    label: '平台',
    width: 120,
    options: [{ value: '', label: '全部平台' }, ...platforms.map((p) => ({ value: p.value, label: p.label }))],
  },
  {
    kind: 'select',
    name: 'channel',
    label: '渠道',
    width: 180,
    options: [{ value: '', label: '全部渠道' }, ...channels.map((c) => ({ value: c.value, label: c.label }))],
  },
  {
    kind: 'select',
    name: 'status',
    label: '状态',
    width: 120,
    options: [{ value: '', label: '全部状态' }, ...versionStatuses.map((s) => ({ value: s.value, label: s.label }))],
  },
];
const sortColumns = ['versionCode', 'updatedAt', 'publishedAt'] as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const pick = <T extends { value: string }>(options: readonly T[], v: string | undefined) =>
    options.find((o) => o.value === v)?.value as T['value'] | undefined;
  const platform = pick(platforms, values.platform);
  const channel = pick(channels, values.channel);
  const status = pick(versionStatuses, values.status);
  return {
    search: values.search ?? '',
    ...(platform ? { platform } : {}),
    ...(channel ? { channel } : {}),
    ...(status ? { status } : {}),
    ...sortParams(sort, sortColumns),
  };
}

const batchButtons: BatchButton[] = [
  { label: '批量发布', path: '/api/version/publish/batch' },
  { label: '批量暂停', path: '/api/version/pause/batch', danger: true },
];

function Releases() {
  const list = useList({ fetchPath: '/api/version/fetch/page', keys, toFilter });
  const selection = useSelection<Release>((v) => `${v.versionName}（${v.versionCode}）`);
  const { canCall } = useGrants();
  const batches = useAllowedBatches(batchButtons);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [copying, setCopying] = useState<Release | null>(null);
  const publish = useApiAction('/api/version/publish');
  const pause = useApiAction('/api/version/pause');
  const rollback = useApiAction('/api/version/rollback');
  const remove = useApiAction('/api/version/remove');

  const columns = useMemo<ColumnsType<Release>>(
    () => [
      {
        title: '版本',
        key: 'versionCode',
        sorter: true,
        render: (_, v) => (
          <div className="version-cell">
            <Typography.Link strong onClick={() => setEditing(v.id)}>
              {v.versionName}
            </Typography.Link>
            <span className="list-muted">
              版本号 {v.versionCode} · 最低 {v.minVersionCode}
            </span>
          </div>
        ),
      },
      appColumn<Release>(),
      { title: '平台', dataIndex: 'platform', key: 'platform', render: (p: string) => labelOf(platforms, p) },
      { title: '渠道', dataIndex: 'channel', key: 'channel', render: (c: string) => <Tag>{labelOf(channels, c)}</Tag> },
      {
        title: '安装包 / 商店链接',
        key: 'package',
        render: (_, v) => (
          <div className="version-cell version-package-cell">
            {v.package ? (
              <>
                <Typography.Link href={v.package.url} ellipsis>
                  {v.package.name}
                </Typography.Link>
                <Typography.Text type="secondary" copyable={{ text: v.package.sha256 }} className="version-hash">
                  {formatSize(v.package.size)} · SHA-256 {v.package.sha256.slice(0, 10)}…
                </Typography.Text>
              </>
            ) : null}
            {v.storeUrl ? (
              <Typography.Text type="secondary" ellipsis={{ tooltip: v.storeUrl }}>
                {v.storeUrl}
              </Typography.Text>
            ) : null}
            {!v.package && !v.storeUrl ? <span className="list-muted">未设置</span> : null}
          </div>
        ),
      },
      {
        title: '灰度',
        dataIndex: 'rollout',
        key: 'rollout',
        width: 120,
        render: (r: number) => <Progress percent={r} size="small" aria-label="灰度比例" />,
      },
      {
        title: '状态',
        key: 'status',
        render: (_, v) => (
          <Space size={[0, 4]} wrap>
            <Tag color={statusColor[v.status]}>{labelOf(versionStatuses, v.status)}</Tag>
            {v.reviewHold ? <Tag color="purple">审核中暂停提示</Tag> : null}
          </Space>
        ),
      },
      timeColumn('发布时间', 'publishedAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, v) => (
          <RowActions
            actions={[
              { key: 'edit', label: '编辑', path: '/api/version/update', onClick: () => setEditing(v.id) },
              v.status === 'published'
                ? {
                    key: 'pause',
                    label: '暂停',
                    path: '/api/version/pause',
                    confirm: {
                      title: '暂停版本',
                      description: '暂停后 App 不再提示这个版本，可以随时恢复。',
                      okText: '暂停',
                      onConfirm: () => untilSettled(pause.mutate, { id: v.id }),
                    },
                  }
                : {
                    key: 'publish',
                    label: v.status === 'draft' ? '发布' : '恢复',
                    path: '/api/version/publish',
                    confirm: {
                      title: v.status === 'draft' ? '发布版本' : '恢复发布',
                      description: `发布后，${labelOf(channels, v.channel)}的用户检查更新时会得到 ${v.versionName}（灰度 ${v.rollout}%）。`,
                      okText: '发布',
                      onConfirm: () => untilSettled(publish.mutate, { id: v.id }),
                    },
                  },
              (v.status === 'published' || v.status === 'paused') && {
                key: 'rollback',
                label: '回滚',
                path: '/api/version/rollback',
                danger: true,
                confirm: {
                  title: '回滚版本',
                  description: '回滚后这个版本撤下，用户检查更新时得到上一个已发布的版本。',
                  okText: '回滚',
                  onConfirm: () => untilSettled(rollback.mutate, { id: v.id }),
                },
              },
              { key: 'copy', label: '复制到渠道', path: '/api/version/copy', onClick: () => setCopying(v) },
              v.status === 'draft' && {
                key: 'remove',
                label: '删除',
                path: '/api/version/remove',
                danger: true,
                confirm: {
                  title: '删除草稿',
                  description: '删除后无法恢复。',
                  okText: '删除',
                  onConfirm: () => untilSettled(remove.mutate, { id: v.id }),
                },
              },
            ]}
          />
        ),
      },
    ],
    [publish.mutate, pause.mutate, rollback.mutate, remove.mutate],
  );

  return (
    <>
      <ListView<Release>
        exportPath="/api/version/export"
        exportName="版本"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有版本。点击“新建版本”上传安装包，选择渠道后发布。"
        header={<BatchBar selection={selection} noun="版本" buttons={batchButtons} />}
        rowSelection={batches.length ? selection.rowSelection : undefined}
        actions={
          canCall('/api/version/make') ? (
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建版本
            </Button>
          ) : null
        }
      />
      <VersionEditor target={editing} onClose={() => setEditing(null)} />
      <CopyModal release={copying} onClose={() => setCopying(null)} />
    </>
  );
}

/** /admin/admin/version (版本管理): releases per platform and store channel, what is live where, and how they do. */
export default function VersionPage() {
  return (
    <Tabs
      className="version-tabs"
      items={[
        { key: 'list', label: '版本列表', children: <Releases /> },
        { key: 'matrix', label: '渠道矩阵', children: <ChannelMatrix /> },
        { key: 'stats', label: '版本统计', children: <VersionStats /> },
      ]}
      destroyOnHidden
    />
  );
}

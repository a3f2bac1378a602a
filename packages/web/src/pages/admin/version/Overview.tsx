import { channels, platforms, versionStatuses } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Segmented, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useApiQuery } from '../../../api/hooks';
import { statusColor } from './status';

type Matrix = ApiOutput<'/api/version/fetch/matrix'>;
type MatrixRow = Matrix['rows'][number];
type Platform = (typeof platforms)[number]['value'];

function PlatformSwitch({ value, onChange }: { value: Platform; onChange: (p: Platform) => void }) {
  return (
    <Segmented
      options={platforms.map((p) => ({ value: p.value, label: p.label }))}
      value={value}
      onChange={(v) => onChange(v as Platform)}
      className="version-platform"
    />
  );
}

/** 渠道矩阵: each channel × the newest versions, with state and rollout, so operators see what is live where. */
export function ChannelMatrix() {
  const [platform, setPlatform] = useState<Platform>('android');
  const matrix = useApiQuery('/api/version/fetch/matrix', { platform });
  const columns: ColumnsType<MatrixRow> = [
    {
      title: '渠道',
      dataIndex: 'channel',
      key: 'channel',
      fixed: 'left',
      width: 150,
      render: (c: string) => labelOf(channels, c),
    },
    ...(matrix.data?.columns ?? []).map((col) => ({
      title: `${col.versionName}（${col.versionCode}）`,
      key: String(col.versionCode),
      render: (_: unknown, row: MatrixRow) => {
        const cell = row.cells.find((c) => c.versionCode === col.versionCode);
        if (!cell) return <span className="list-muted">—</span>;
        return (
          <Tag color={statusColor[cell.status]}>
            {labelOf(versionStatuses, cell.status)}
            {cell.status === 'published' && cell.rollout < 100 ? ` ${cell.rollout}%` : ''}
          </Tag>
        );
      },
    })),
  ];
  return (
    <div className="version-overview">
      <PlatformSwitch value={platform} onChange={setPlatform} />
      <Table<MatrixRow>
        rowKey="channel"
        size="small"
        loading={matrix.isLoading}
        columns={columns}
        dataSource={(matrix.data?.rows ?? []).filter((r) => r.cells.length > 0)}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '这个平台还没有版本' }}
      />
    </div>
  );
}

type Stat = ApiOutput<'/api/version/fetch/stats'>['list'][number];

/** 版本统计: per day, version and channel, how many update checks, prompts and downloads the apps reported. */
export function VersionStats() {
  const [platform, setPlatform] = useState<Platform>('android');
  const stats = useApiQuery('/api/version/fetch/stats', { platform, days: 14 });
  const columns: ColumnsType<Stat> = [
    { title: '日期', dataIndex: 'day', key: 'day' },
    { title: '版本', dataIndex: 'versionName', key: 'versionName' },
    { title: '渠道', dataIndex: 'channel', key: 'channel', render: (c: string) => labelOf(channels, c) },
    { title: '检查更新', dataIndex: 'checks', key: 'checks', align: 'right' },
    { title: '弹出提示', dataIndex: 'prompts', key: 'prompts', align: 'right' },
    { title: '开始下载', dataIndex: 'downloads', key: 'downloads', align: 'right' },
  ];
  return (
    <div className="version-overview">
      <PlatformSwitch value={platform} onChange={setPlatform} />
      <Table<Stat>
        rowKey={(r) => `${r.day}-${r.versionId}-${r.channel}`}
        size="small"
        loading={stats.isLoading}
        columns={columns}
        dataSource={stats.data?.list ?? []}
        pagination={{ pageSize: 20 }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '最近 14 天还没有 App 上报（检查更新时自动计数）' }}
      />
    </div>
  );
}

import { channels, platforms, versionStatuses } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Segmented, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useApiQuery } from '../../../api/hooks';
import { AppSelect, usePickedApp } from '../../../components/admin/appField';
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
    />
  );
}

/**
 * The app and platform a tab shows (one app's releases at a time): the header's app first, or the
 * default app under 全部应用; another one can be picked here.
 */
function useScope() {
  const [app, pickApp] = usePickedApp();
  const [platform, setPlatform] = useState<Platform>('android');
  const switches = (
    <Space wrap className="version-platform">
      <AppSelect aria-label="应用" value={app} onChange={pickApp} style={{ width: 150 }} />
      <PlatformSwitch value={platform} onChange={setPlatform} />
    </Space>
  );
  return { app, platform, switches };
}

/** 渠道矩阵: each channel × the newest versions, with state and rollout, so operators see what is live where. */
export function ChannelMatrix() {
  const { app, platform, switches } = useScope();
  const matrix = useApiQuery('/api/version/fetch/matrix', { app, platform });
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
      {switches}
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
  const { app, platform, switches } = useScope();
  const stats = useApiQuery('/api/version/fetch/stats', { app, platform, days: 14 });
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
      {switches}
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

import { formatExactTime, relativeTime } from '@appdesk/contract/format';
import { Tooltip } from 'antd';
import type { ColumnType } from 'antd/es/table';

/**
 * The exact time to the second in Shanghai time ('2026-11-23 21:05:09', what operators reconcile
 * by), with the relative form ('3 分钟前') on hover.
 */
export function TimeCell({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="list-muted">-</span>;
  return (
    <Tooltip title={relativeTime(value)}>
      <time dateTime={value} className="list-time">
        {formatExactTime(value)}
      </time>
    </Tooltip>
  );
}

/** A browser's or app's user agent: long and technical, so its start with the whole on hover. */
export function AgentCell({ value, device }: { value: string | null | undefined; device?: string | null }) {
  if (!value) return <span className="list-muted">-</span>;
  // The device as people read it ("Chrome 120 · Windows 10"); the raw User-Agent on hover.
  return (
    <Tooltip title={value}>
      <span className="list-agent">{device || value}</span>
    </Tooltip>
  );
}

/** A coin change: green +N or red −N. */
export function DeltaCell({ value }: { value: number }) {
  return value >= 0 ? (
    <span className="list-delta-up">+{value.toLocaleString('zh-CN')}</span>
  ) : (
    <span className="list-delta-down">−{Math.abs(value).toLocaleString('zh-CN')}</span>
  );
}

/** A time column: the exact time with the relative one on hover, sortable by the server when `sortable`. */
export function timeColumn<Row>(title: string, key: keyof Row & string, sortable = true): ColumnType<Row> {
  return {
    title,
    dataIndex: key,
    key,
    sorter: sortable,
    render: (v: string | null) => <TimeCell value={v} />,
  };
}

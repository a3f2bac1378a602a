import { fenToYuan } from '@appdesk/contract/format';
import type { ApiOutput } from '@appdesk/contract/types';
import { defaultColor, palette } from './chartTheme';

/*
 * The trend charts' ECharts option, apart from React and ECharts so it can be checked on its own.
 * Lines are straight between days (or hours): a smoothed curve rises above a run of days with no
 * value, and dips below zero beside it, showing figures that never were.
 */

type Charts = ApiOutput<'/api/dashboard/fetch/charts'>;

const weekdays = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
/** Axis label: 08:00, or 11-23 for a day. */
const axisLabel = (unit: Charts['unit'], label: string) => (unit === 'hour' ? label : label.slice(5));
/** Tooltip heading: 今日 08:00 – 09:00, or 2026-11-23 周一. */
function heading(unit: Charts['unit'], label: string) {
  if (unit === 'hour') return `今日 ${label} – ${String(Number(label.slice(0, 2)) + 1).padStart(2, '0')}:00`;
  return `${label} ${weekdays[new Date(`${label}T00:00:00Z`).getUTCDay()]}`;
}

interface AxisItem {
  dataIndex: number;
  marker: string;
  seriesName: string;
  value: number;
}

export function trendOption(
  data: Charts,
  series: { name: string; values: number[]; money?: boolean; bar?: boolean }[],
) {
  const money = series.some((s) => s.money);
  const text = (s: (typeof series)[number], v: number) => (s.money ? `${fenToYuan(v)} 元` : v.toLocaleString('zh-CN'));
  return {
    grid: { left: 8, right: 8, top: 36, bottom: 4, containLabel: true },
    legend: { top: 0, left: 0 },
    tooltip: {
      trigger: 'axis',
      formatter: (items: AxisItem[]) => {
        const first = items[0];
        if (!first) return '';
        const lines = items.map((i) => {
          const s = series.find((x) => x.name === i.seriesName);
          return `${i.marker}${i.seriesName}：${s ? text(s, s.values[i.dataIndex] ?? 0) : i.value}`;
        });
        return [heading(data.unit, data.labels[first.dataIndex] ?? ''), ...lines].join('<br/>');
      },
    },
    xAxis: {
      type: 'category',
      data: data.labels.map((l) => axisLabel(data.unit, l)),
      boundaryGap: series.some((s) => s.bar),
    },
    yAxis: money
      ? [
          { type: 'value', minInterval: 1 },
          { type: 'value', axisLabel: { formatter: '{value} 元' }, splitLine: { show: false } },
        ]
      : { type: 'value', minInterval: 1 },
    series: series.map((s, i) => ({
      name: s.name,
      type: s.bar ? 'bar' : 'line',
      yAxisIndex: money && s.money ? 1 : 0,
      smooth: false,
      showSymbol: data.labels.length <= 31,
      barMaxWidth: 16,
      itemStyle: { color: i === 0 ? defaultColor : palette[i] },
      areaStyle: s.bar || i > 0 ? undefined : { opacity: 0.08 },
      data: s.money ? s.values.map((v) => v / 100) : s.values,
    })),
  };
}

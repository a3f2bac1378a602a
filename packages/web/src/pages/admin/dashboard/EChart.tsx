import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useScheme } from '../../../components/theme';
import { chartTheme } from './chartTheme';

// Only what the dashboard draws: this module (and ECharts with it) is a chunk of this page alone.
echarts.use([
  LineChart,
  BarChart,
  PieChart,
  GridComponent,
  TitleComponent,
  TooltipComponent,
  LegendComponent,
  CanvasRenderer,
]);
echarts.registerTheme('appdesk-light', chartTheme('light'));
echarts.registerTheme('appdesk-dark', chartTheme('dark'));

export type ChartOption = echarts.EChartsCoreOption;

/** One ECharts canvas that follows its box's size and the console's light or dark scheme. */
export function EChart({
  option,
  height = 280,
  label,
  describedBy,
}: {
  option: ChartOption;
  height?: number;
  label: string;
  /** The id of the chart's figures in words (its text alternative). */
  describedBy?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const scheme = useScheme();
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current, `appdesk-${scheme}`, { renderer: 'canvas' });
    chart.current = instance;
    instance.setOption(latest.current);
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [scheme]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <div
      ref={box}
      className="dash-chart"
      style={{ height }}
      role="img"
      aria-label={label}
      aria-describedby={describedBy}
    />
  );
}

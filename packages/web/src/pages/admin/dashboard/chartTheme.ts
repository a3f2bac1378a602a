import type { Scheme } from '../../../components/theme';

/**
 * The chart theme of docs/spec-notes.md#9-presentation-and-timings: an eight-colour palette, a default colour for charts of one
 * series, and a tooltip black at 75 % opacity with a 4 px radius. The product names the properties,
 * not the colours: these are the Ant Design Pro era G2 theme that has exactly those properties.
 */
export const palette = ['#8543E0', '#F04864', '#FACC14', '#00BBFF', '#66FFBB', '#2FC25B', '#FA8C16', '#A0D911'];
export const defaultColor = '#00BBFF';

export const tooltipStyle = {
  backgroundColor: 'rgba(0, 0, 0, 0.75)',
  borderWidth: 0,
  borderRadius: 4,
  padding: [6, 10],
  textStyle: { color: '#fff', fontSize: 12 },
  extraCssText: 'box-shadow: none;',
};

/** ECharts theme objects, registered once per scheme (text and axis colours follow the console's). */
export function chartTheme(scheme: Scheme) {
  const text = scheme === 'dark' ? 'rgba(255, 255, 255, 0.65)' : 'rgba(0, 0, 0, 0.65)';
  const line = scheme === 'dark' ? '#303030' : '#e8e8e8';
  const axis = {
    axisLine: { lineStyle: { color: line } },
    axisLabel: { color: text },
    splitLine: { lineStyle: { color: line } },
  };
  return {
    color: palette,
    backgroundColor: 'transparent',
    textStyle: { fontFamily: 'inherit' },
    legend: { textStyle: { color: text } },
    tooltip: tooltipStyle,
    categoryAxis: { ...axis, axisTick: { show: false } },
    valueAxis: { ...axis, axisLine: { show: false } },
  };
}

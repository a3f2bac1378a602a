import { channels } from '@appdesk/contract/constants';
import { fenToYuan } from '@appdesk/contract/format';
import type { ApiOutput } from '@appdesk/contract/types';
import { Card, Empty } from 'antd';
import { useId, useMemo } from 'react';
import { defaultColor } from './chartTheme';
import { type ChartOption, EChart } from './EChart';
import { trendOption } from './trendOption';

type Charts = ApiOutput<'/api/dashboard/fetch/charts'>;

const channelLabel = (code: string) =>
  code === '' ? '未知渠道' : (channels.find((c) => c.value === code)?.label ?? code);
const allZero = (...lists: number[][]) => lists.every((list) => list.every((v) => v === 0));

function channelOption(data: Charts) {
  const pie = (name: string, center: string, values: { name: string; value: number }[], money: boolean) => ({
    name,
    type: 'pie',
    radius: ['38%', '62%'],
    center: [center, '56%'],
    avoidLabelOverlap: true,
    label: { show: false },
    tooltip: {
      formatter: (p: { name: string; value: number; percent: number; marker: string }) =>
        `${name}<br/>${p.marker}${p.name}：${money ? `${fenToYuan(p.value)} 元` : p.value.toLocaleString('zh-CN')}（${p.percent}%）`,
    },
    data: values,
  });
  const rows = data.byChannel.slice(0, 8);
  const rest = data.byChannel.slice(8);
  const named = [
    ...rows.map((r) => ({ name: channelLabel(r.channel), users: r.users, revenue: r.revenue })),
    ...(rest.length > 0
      ? [
          {
            name: '其他渠道',
            users: rest.reduce((s, r) => s + r.users, 0),
            revenue: rest.reduce((s, r) => s + r.revenue, 0),
          },
        ]
      : []),
  ];
  return {
    tooltip: { trigger: 'item' },
    legend: { type: 'scroll', bottom: 0 },
    title: [
      { text: '新增用户', left: '25%', top: 0, textAlign: 'center', textStyle: { fontSize: 13, fontWeight: 'normal' } },
      { text: '收入', left: '75%', top: 0, textAlign: 'center', textStyle: { fontSize: 13, fontWeight: 'normal' } },
    ],
    series: [
      pie(
        '新增用户',
        '25%',
        named.filter((r) => r.users > 0).map((r) => ({ name: r.name, value: r.users })),
        false,
      ),
      pie(
        '收入',
        '75%',
        named.filter((r) => r.revenue > 0).map((r) => ({ name: r.name, value: r.revenue })),
        true,
      ),
    ],
  };
}

function itemsOption(data: Charts) {
  const items = [...data.topItems].reverse(); // the largest on top
  return {
    grid: { left: 8, right: 24, top: 8, bottom: 4, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: {
      type: 'category',
      data: items.map((i) => i.name),
      axisLabel: { width: 120, overflow: 'truncate' },
    },
    series: [
      {
        name: '兑换次数',
        type: 'bar',
        barMaxWidth: 14,
        itemStyle: { color: defaultColor, borderRadius: [0, 2, 2, 0] },
        label: { show: true, position: 'right' },
        data: items.map((i) => i.count),
      },
    ],
  };
}

const count = (v: number) => v.toLocaleString('zh-CN');
const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
const yuan = (fen: number) => `${fenToYuan(fen)} 元`;

/** The figures a chart draws, in words: its text alternative (and what the e2e suite reads). */
function summaries(data: Charts) {
  const { signups, active, orders, revenue } = data.series;
  const peak = Math.max(0, ...active);
  const peakAt = data.labels[active.indexOf(peak)] ?? '';
  const users = data.byChannel.filter((c) => c.users > 0);
  const paid = data.byChannel.filter((c) => c.revenue > 0);
  return {
    users: `新增用户共 ${count(sum(signups))} 人；活跃用户${peak > 0 ? `最多 ${count(peak)} 人（${peakAt}）` : '为 0'}。`,
    orders: `支付订单共 ${count(sum(orders))} 笔，收入共 ${yuan(sum(revenue))}。`,
    channels: [
      `新增用户：${users.map((c) => `${channelLabel(c.channel)} ${count(c.users)} 人`).join('、') || '无'}`,
      `收入：${paid.map((c) => `${channelLabel(c.channel)} ${yuan(c.revenue)}`).join('、') || '无'}。`,
    ].join('；'),
    items: `兑换次数：${data.topItems.map((i) => `${i.name} ${count(i.count)} 次`).join('、') || '无'}。`,
  };
}

function ChartCard(props: {
  name: string;
  title: string;
  empty: string | null;
  option: ChartOption;
  label: string;
  summary: string;
}) {
  const summaryId = useId();
  return (
    <Card size="small" title={props.title} className="dash-chart-card">
      {props.empty ? (
        <Empty className="dash-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.empty} />
      ) : (
        <>
          <EChart option={props.option} label={props.label} describedBy={summaryId} />
          <p id={summaryId} className="dash-summary" data-summary={props.name}>
            {props.summary}
          </p>
        </>
      )}
    </Card>
  );
}

/** The dashboard's charts (a chunk of its own, with ECharts): trends, channels, top exchange items. */
export default function DashboardCharts({ data, rangeLabel }: { data: Charts; rangeLabel: string }) {
  const options = useMemo(
    () => ({
      users: trendOption(data, [
        { name: '新增用户', values: data.series.signups },
        { name: '活跃用户', values: data.series.active },
      ]),
      orders: trendOption(data, [
        { name: '支付订单', values: data.series.orders, bar: true },
        { name: '收入', values: data.series.revenue, money: true },
      ]),
      channels: channelOption(data),
      items: itemsOption(data),
    }),
    [data],
  );
  const summary = useMemo(() => summaries(data), [data]);
  const { signups, active, orders, revenue } = data.series;
  return (
    <div className="dash-charts">
      <ChartCard
        name="users"
        title="用户趋势"
        summary={summary.users}
        label={`${rangeLabel}新增用户与活跃用户趋势图`}
        empty={allZero(signups, active) ? `${rangeLabel}暂无新增或活跃用户，有用户注册或登录后这里会显示趋势。` : null}
        option={options.users}
      />
      <ChartCard
        name="orders"
        title="订单与收入"
        summary={summary.orders}
        label={`${rangeLabel}支付订单数与收入趋势图`}
        empty={allZero(orders, revenue) ? `${rangeLabel}暂无支付订单，收入为 0 元。` : null}
        option={options.orders}
      />
      <ChartCard
        name="channels"
        title="渠道分布"
        summary={summary.channels}
        label={`${rangeLabel}各渠道新增用户与收入占比图`}
        empty={data.byChannel.length === 0 ? `${rangeLabel}暂无新增用户和收入，无法按渠道统计。` : null}
        option={options.channels}
      />
      <ChartCard
        name="items"
        title="热门兑换商品"
        summary={summary.items}
        label={`${rangeLabel}兑换次数最多的商品排行图`}
        empty={data.topItems.length === 0 ? `${rangeLabel}还没有人兑换积分商城的商品。` : null}
        option={options.items}
      />
    </div>
  );
}

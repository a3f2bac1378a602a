import { z } from 'zod';
import { type DashboardRange, dashboardRanges } from '../constants';
import { endpoint } from '../endpoint';
import { appCode, isoTime } from '../fields';

/** One card of the statistics dashboard (数据统计): the figure now and the previous period's, when known. */
export const dashboardCard = z.object({
  value: z.number().int(),
  /** The same figure for the period before (yesterday, the 7 or 30 days before); null when not kept. */
  previous: z.number().int().nullable(),
  /** The figure is the company's whatever app is asked for (coins are company-wide). */
  companyWide: z.boolean().optional(),
});

/** The console's app switcher: absent = 全部应用, whose figures are the sum of the apps'. */
const dashboardApp = appCode.optional();

export const dashboardCards = z.object({
  usersTotal: dashboardCard,
  usersNewToday: dashboardCard,
  usersActiveToday: dashboardCard,
  vipsActive: dashboardCard,
  revenueToday: dashboardCard,
  revenue7Days: dashboardCard,
  revenue30Days: dashboardCard,
  coinsIssuedToday: dashboardCard,
  coinsSpentToday: dashboardCard,
  feedbackPending: dashboardCard,
  reviewRewardsPending: dashboardCard,
  exchangesWaiting: dashboardCard,
});

const dashboardRange = z.enum(dashboardRanges.map((r) => r.value) as [DashboardRange, ...DashboardRange[]], {
  error: '时间范围只能是今日、本周、本月或本年',
});

const figures = z.array(z.number().int());

export const dashboardCharts = z.object({
  range: dashboardRange,
  /** today: one bucket per hour; the other ranges: one per day, up to today. */
  unit: z.enum(['hour', 'day']),
  /** `HH:00` or `YYYY-MM-DD`, Shanghai time, one per bucket. */
  labels: z.array(z.string()),
  series: z.object({
    signups: figures,
    /** Distinct users active in the hour or day. */
    active: figures,
    /** Paid orders, by payment time (refunded ones taken back). */
    orders: figures,
    /** Fen. */
    revenue: figures,
  }),
  /** Sign-ups and revenue (fen) per channel in the range, most users first. */
  byChannel: z.array(z.object({ channel: z.string(), users: z.number().int(), revenue: z.number().int() })),
  /** The most redeemed exchange items in the range (cancelled redemptions left out), at most 10. */
  topItems: z.array(z.object({ itemId: z.number().int(), name: z.string(), count: z.number().int() })),
});

export const dashboardEndpoints = {
  '/api/dashboard/fetch/cards': endpoint({
    access: 'admin',
    permission: 'dashboard.read',
    summary:
      '数据统计卡片：用户、收入（分）、金币、待处理事项，附上一周期数值（结果最多缓存 60 秒）；指定应用时只统计该应用（金币为全公司）',
    input: z.object({
      app: dashboardApp,
      /** Recompute now (the 刷新 button) instead of answering the kept figures, if those are over 5 s old. */
      refresh: z.boolean({ error: '刷新标记必须是布尔值' }).optional().meta({ title: '立即刷新' }),
    }),
    output: z.object({
      cards: dashboardCards,
      /** When these figures were computed: they may be up to 60 seconds old. */
      generatedAt: isoTime,
      maxAgeSeconds: z.number().int(),
    }),
  }),
  '/api/dashboard/fetch/charts': endpoint({
    access: 'admin',
    permission: 'dashboard.read',
    summary:
      '数据统计图表：新增用户、活跃用户、支付订单、收入（分）随时间变化，渠道分布与热门兑换商品（今日按小时；本周、本月、本年按天）',
    input: z.object({
      app: dashboardApp,
      range: dashboardRange.default('week').meta({ title: '时间范围' }),
      /** Recompute now (the 刷新 button) instead of answering the kept figures, if those are over 5 s old. */
      refresh: z.boolean({ error: '刷新标记必须是布尔值' }).optional().meta({ title: '立即刷新' }),
    }),
    output: dashboardCharts.extend({ generatedAt: isoTime, maxAgeSeconds: z.number().int() }),
    example: { range: 'month' },
  }),
};

export default dashboardEndpoints;
type DashboardEndpoints = typeof dashboardEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends DashboardEndpoints {}
}

export type { DashboardRange };

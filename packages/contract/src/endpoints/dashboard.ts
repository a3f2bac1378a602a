import { z } from 'zod';
import { endpoint } from '../endpoint';
import { isoTime } from '../fields';

/** One card of the statistics dashboard (数据统计): the figure now and the previous period's, when known. */
export const dashboardCard = z.object({
  value: z.number().int(),
  /** The same figure for the period before (yesterday, the 7 or 30 days before); null when not kept. */
  previous: z.number().int().nullable(),
});

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

export const dashboardEndpoints = {
  '/api/dashboard/fetch/cards': endpoint({
    access: 'admin',
    summary: '数据统计卡片：用户、收入（分）、金币、待处理事项，附上一周期数值（结果最多缓存 60 秒）',
    input: z.object({
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
};

export default dashboardEndpoints;
type DashboardEndpoints = typeof dashboardEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends DashboardEndpoints {}
}

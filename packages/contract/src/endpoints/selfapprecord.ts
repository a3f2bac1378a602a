import { z } from 'zod';
import { endpoint } from '../endpoint';
import { appCode, exactTotal, id, isoTime, order, page, paged, size, sortBy, textField, timeRange } from '../fields';
import { rules } from '../rules';
import { platform, selfappAction } from './selfapp';

/**
 * Promotion records (推广记录, /api/selfapp/record/…): every show, click and install the apps
 * reported, filtered by promoted app, action, source app, channel and time, the totals per
 * promoted app for the same filter (shows, clicks, installs, rates, coins paid), and the export.
 * The file sorts after selfapp.ts: its examples read what those examples made.
 */
export const selfappRecordFilter = timeRange.extend({
  selfappId: id.optional().meta({ title: '推广应用 ID' }),
  action: selfappAction.optional(),
  app: appCode.optional().meta({ title: '来源应用' }),
  channel: textField(rules.channelName).optional(),
});

export const selfappRecord = z.object({
  id,
  selfappId: id,
  /** The promoted app's name; empty when it has been deleted since. */
  selfappName: z.string(),
  action: selfappAction,
  app: z.string().meta({ title: '来源应用' }),
  platform,
  channel: z.string(),
  deviceId: z.string(),
  userId: z.number().int().nullable(),
  userPhone: z.string().nullable().meta({ description: '脱敏手机号' }),
  /** Coins this report paid (an install's reward, once per user and promoted app). */
  coins: z.number().int(),
  createdAt: isoTime,
});
export type SelfappRecord = z.infer<typeof selfappRecord>;

export const selfappTotal = z.object({
  selfappId: id,
  selfappName: z.string(),
  icon: z.string(),
  shows: z.number().int(),
  clicks: z.number().int(),
  installs: z.number().int(),
  /** clicks ÷ shows (null without shows). */
  clickRate: z.number().nullable(),
  /** installs ÷ clicks (null without clicks). */
  installRate: z.number().nullable(),
  coins: z.number().int(),
  rewardedUsers: z.number().int(),
});

/** The list's order, which its export keeps. */
const recordSort = { sort: sortBy(['createdAt', 'coins']), order };

export const selfappRecordEndpoints = {
  '/api/selfapp/record/fetch/page': endpoint({
    access: 'admin',
    permission: 'selfapprecord.read',
    summary: '分页查询推广记录（推广应用、行为、来源应用、渠道、时间）',
    input: selfappRecordFilter.extend({ page, size, exactTotal, ...recordSort }),
    output: paged(selfappRecord),
  }),
  '/api/selfapp/record/fetch/totals': endpoint({
    access: 'admin',
    permission: 'selfapprecord.read',
    summary:
      '筛选时间内每个推广应用的展示、点击、安装次数，点击率（点击 ÷ 展示）、安装率（安装 ÷ 点击）和发放的金币（不按行为筛选）',
    input: selfappRecordFilter,
    output: z.object({
      list: z.array(selfappTotal),
      sum: selfappTotal.omit({ selfappId: true, selfappName: true, icon: true }),
    }),
  }),
  '/api/selfapp/record/export': endpoint({
    access: 'admin',
    permission: 'selfapprecord.export',
    summary: '导出筛选后的全部推广记录为 Excel',
    input: selfappRecordFilter.extend(recordSort),
    output: z.unknown(),
    download: 'xlsx',
  }),
};

export default selfappRecordEndpoints;
type SelfappRecordEndpoints = typeof selfappRecordEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends SelfappRecordEndpoints {}
}

import { type ChannelCode, channelDelivery, channels, FALLBACK_CHANNEL, UpdateType } from '@appdesk/contract/constants';
import type { versionEndpoints } from '@appdesk/contract/endpoints/version';
import { inRollout } from '@appdesk/contract/rollout';
import type { z } from 'zod';
import type { AppRecord } from '../../core/apps';
import type { Db } from '../../db/index';
import { isoOrNull } from '../../db/paging';
import type { RequestContext } from '../../http/context';
import { RecentAnswers } from '../../http/recent-answers';
import { fileUrl } from './presenter';

type Check = z.output<(typeof versionEndpoints)['/api/version/fetch/latest']['input']>;
const known = new Set<string>(channels.map((c) => c.value));

/**
 * The channel an app's answer comes from: its own when known and the app ships on it (应用管理),
 * else the official site (`other`).
 */
export const resolveChannel = (channel: string, app: AppRecord | undefined): ChannelCode =>
  known.has(channel) && (!app || app.channels.some((c) => c.channel === channel))
    ? (channel as ChannelCode)
    : FALLBACK_CHANNEL;

/** The salt of a release's rollout: stable across edits, so raising the share keeps its devices. */
const rolloutSalt = (row: { app: string; platform: string; version_code: number }) =>
  `version:${row.app}:${row.platform}:${row.version_code}`;

/**
 * A channel's published releases (newest 50), kept per server for up to a second: the update
 * check is the hottest call there is, and a release changes rarely. This server's own writes drop
 * the copy at once (forgetReleases); another server's show within the second.
 */
const releases = new RecentAnswers<Awaited<ReturnType<typeof readPublished>>>(1000);

/** Drops what this server keeps of the published releases (after a change). */
export function forgetReleases(owner: object): void {
  releases.forget(owner);
}

function readPublished(ctx: RequestContext, app: string, platform: string, channel: string) {
  return ctx.db
    .selectFrom('versions')
    .leftJoin('files', 'files.id', 'versions.file_id')
    .select([
      'versions.id',
      'versions.app',
      'versions.platform',
      'versions.version_name',
      'versions.version_code',
      'versions.min_version_code',
      'versions.changelog',
      'versions.store_url',
      'versions.size',
      'versions.md5',
      'versions.sha256',
      'versions.rollout',
      'versions.prompt_times',
      'versions.prompt_interval_days',
      'versions.ignorable',
      'versions.review_hold',
      'versions.published_at',
      'files.key as file_key',
    ])
    .where('versions.app', '=', app)
    .where('versions.platform', '=', platform)
    .where('versions.channel', '=', channel)
    .where('versions.status', '=', 'published')
    .orderBy('versions.version_code', 'desc')
    .limit(50)
    .execute();
}

function publishedReleases(ctx: RequestContext, app: string, platform: string, channel: string) {
  return releases.get(ctx.config, `${app}|${platform}|${channel}`, () => readPublished(ctx, app, platform, channel));
}

/**
 * The update check: of the channel's published releases above the app's code, the newest whose
 * rollout includes this device. Forced (2) when the app is below the minimum code of that release
 * or of any newer one the device is offered; optional (1) otherwise, unless the release's prompts
 * are held while the store reviews it.
 */
export async function latestFor(ctx: RequestContext, input: Check) {
  const app = await ctx.apps.get(input.app);
  const channel = resolveChannel(input.channel, app);
  const rows = (await publishedReleases(ctx, input.app, input.platform, channel)).filter(
    (row) => row.version_code > input.versionCode,
  );
  const eligible = rows.filter((row) => inRollout(input.deviceId, rolloutSalt(row), row.rollout));
  const offered = eligible[0];
  if (!offered) return { updateType: UpdateType.NONE, version: null };
  const forced = eligible.some((row) => input.versionCode < row.min_version_code);
  if (!forced && offered.review_hold === 1) return { updateType: UpdateType.NONE, version: null };
  await countCheck(ctx.db, offered.id, channel);
  const delivery = channelDelivery[channel].delivery;
  // The release's link, set when it was made from the app's link on the channel (应用管理) or typed.
  const storeUrl = offered.store_url;
  const download = offered.file_key ? `${ctx.config.publicUrl}${fileUrl(offered.file_key)}` : '';
  return {
    updateType: forced ? UpdateType.FORCED : UpdateType.OPTIONAL,
    version: {
      id: offered.id,
      versionName: offered.version_name,
      versionCode: offered.version_code,
      minVersionCode: offered.min_version_code,
      changelog: offered.changelog,
      channel,
      delivery: delivery === 'store' && storeUrl ? ('store' as const) : ('direct' as const),
      storeUrl,
      downloadUrl: download,
      size: Number(offered.size),
      md5: offered.md5,
      sha256: offered.sha256,
      prompt: {
        times: offered.prompt_times,
        intervalDays: offered.prompt_interval_days,
        ignorable: offered.ignorable === 1 && !forced,
      },
      publishedAt: isoOrNull(offered.published_at === null ? null : Number(offered.published_at)),
    },
  };
}

/**
 * Counts kept in memory and added to version_stats every few seconds (and before the stats are
 * read), so an update check costs no write of its own.
 */
type Counts = { checks: number; prompts: number; downloads: number };
const pending = new WeakMap<Db, { counts: Map<string, Counts>; flushedAt: number; flushing?: Promise<void> }>();
const FLUSH_MS = 2000;

/** The day in Asia/Shanghai (UTC+8, no daylight saving) as YYYY-MM-DD. */
export const shanghaiDay = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);

/** shanghaiDay of now, formatted once per Shanghai day rather than on every update check. */
let day = { text: '', from: 0, until: 0 };
function today(now: number): string {
  if (now >= day.until || now < day.from) {
    const DAY = 86_400_000;
    const from = Math.floor((now + 8 * 3600_000) / DAY) * DAY - 8 * 3600_000;
    day = { text: shanghaiDay(now), from, until: from + DAY };
  }
  return day.text;
}

/** Counts one event; every few seconds the caller also writes what has gathered (awaited, so no write outlives a call). */
function bump(db: Db, versionId: number, channel: string, field: keyof Counts): Promise<void> {
  let state = pending.get(db);
  if (!state) {
    state = { counts: new Map(), flushedAt: Date.now() };
    pending.set(db, state);
  }
  const key = `${versionId}|${channel}|${today(Date.now())}`;
  const counts = state.counts.get(key) ?? { checks: 0, prompts: 0, downloads: 0 };
  counts[field] += 1;
  state.counts.set(key, counts);
  return Date.now() - state.flushedAt > FLUSH_MS ? flushStats(db) : Promise.resolve();
}

export const countCheck = (db: Db, versionId: number, channel: string) => bump(db, versionId, channel, 'checks');
export const countEvent = (db: Db, versionId: number, channel: string, event: 'prompt' | 'download') =>
  bump(db, versionId, channel, event === 'prompt' ? 'prompts' : 'downloads');

/** Adds the counts kept in memory to version_stats in one transaction. */
export async function flushStats(db: Db): Promise<void> {
  const state = pending.get(db);
  if (!state) return;
  if (state.flushing) return state.flushing;
  const batch = state.counts;
  state.counts = new Map();
  state.flushedAt = Date.now();
  if (batch.size === 0) return;
  state.flushing = db
    .transaction()
    .execute(async (trx) => {
      for (const [key, counts] of batch) {
        const [versionId, channel, day] = key.split('|');
        const exists = await trx
          .selectFrom('versions')
          .select('id')
          .where('id', '=', Number(versionId))
          .executeTakeFirst();
        if (!exists) continue;
        await trx
          .insertInto('version_stats')
          .values({ version_id: Number(versionId), channel, day, ...counts })
          .onConflict((oc) =>
            oc.columns(['version_id', 'channel', 'day']).doUpdateSet((eb) => ({
              checks: eb('version_stats.checks', '+', counts.checks),
              prompts: eb('version_stats.prompts', '+', counts.prompts),
              downloads: eb('version_stats.downloads', '+', counts.downloads),
            })),
          )
          .execute();
      }
    })
    .finally(() => {
      state.flushing = undefined;
    });
  return state.flushing;
}

import { type ChannelCode, channels, FALLBACK_CHANNEL } from '@appdesk/contract/constants';
import { sql } from 'kysely';
import type { Config } from '../../config';
import { AddressWindow, perServer } from '../../core/address-window';
import { changeCoins } from '../../core/ledger';
import { compiledOnce } from '../../db/compiled';
import type { Db } from '../../db/index';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import { ownPackages, platformUrl } from './queries';

const known = new Set<string>(channels.map((c) => c.value));
const channelOf = (channel: string): ChannelCode => (known.has(channel) ? (channel as ChannelCode) : FALLBACK_CHANNEL);

/**
 * Each report is a row and anyone may send them, so they are bounded per client address
 * (docs/security.md#quotas): counted in memory, since a counter in the database would double the write it guards.
 */
const reportsOf = perServer(
  (config: Config) =>
    new AddressWindow(config.quotas.selfappReportsPerAddressPerMinute, 60_000, '推广记录上报过于频繁'),
);

/**
 * One report as one statement: the row is written only when the promoted app exists, so an
 * unknown id costs no second query. Compiled once: `show` is the hottest call of the feature.
 */
const insertReport = compiledOnce(
  (
    db: Db,
    selfappId: number,
    action: string,
    app: string,
    platform: string,
    channel: string,
    deviceId: string,
    userId: number,
    coins: number,
    now: number,
  ) =>
    db
      .insertInto('selfapp_records')
      .columns(['selfapp_id', 'action', 'app', 'platform', 'channel', 'device_id', 'user_id', 'coins', 'created_at'])
      .expression(
        db
          .selectFrom('selfapps')
          .select([
            'id',
            sql<string>`cast(${action} as text)`.as('action'),
            sql<string>`cast(${app} as text)`.as('app'),
            sql<string>`cast(${platform} as text)`.as('platform'),
            sql<string>`cast(${channel} as text)`.as('channel'),
            sql<string>`cast(${deviceId} as text)`.as('device_id'),
            // 0: no user (ids start at 1), stored as null.
            sql<number | null>`nullif(cast(${userId} as integer), 0)`.as('user_id'),
            sql<number>`cast(${coins} as bigint)`.as('coins'),
            sql<number>`cast(${now} as bigint)`.as('created_at'),
          ])
          .where('id', '=', selfappId),
      )
      .returning('id'),
  // A one-row insert of app traffic: on SQLite on the main thread when no other write is under way.
  { pointWrite: true },
);

/** The calls our apps make: which promoted apps to show, and what the user did with them. */
export default defineRoutes({
  '/api/selfapp/fetch/list': {
    handler: async (input, ctx) => {
      const own = ownPackages(await ctx.apps.get(input.app));
      let query = ctx.db
        .selectFrom('selfapps')
        .select(['id', 'name', 'icon', 'description', 'package_id', 'android_url', 'ios_url', 'reward_coins'])
        .where('enabled', '=', 1)
        .where('apps', 'like', `%,${input.app},%`)
        .orderBy('sort')
        .orderBy('id');
      if (own.length) query = query.where('package_id', 'not in', own);
      const rows = (await query.execute()).filter((r) => platformUrl(r, input.platform) !== '');
      let rewarded = new Set<number>();
      const session = rows.length ? await ctx.presentedSession() : { state: 'none' as const };
      if (session.state === 'ok') {
        const paid = await ctx.db
          .selectFrom('selfapp_records')
          .select('selfapp_id')
          .where('user_id', '=', session.user.id)
          .where('coins', '>', 0)
          .execute();
        rewarded = new Set(paid.map((p) => p.selfapp_id));
      }
      return {
        list: rows.map((r) => ({
          id: r.id,
          name: r.name,
          icon: r.icon,
          description: r.description,
          packageId: input.platform === 'android' ? r.package_id : '',
          url: platformUrl(r, input.platform),
          rewardCoins: Number(r.reward_coins),
          rewarded: rewarded.has(r.id),
        })),
      };
    },
  },

  '/api/selfapp/report': {
    message: '已记录',
    handler: async (input, ctx) => {
      reportsOf(ctx.config).take(ctx.ip);
      const session = await ctx.presentedSession();
      const user = session.state === 'ok' && session.user.status !== 'blocked' ? session.user : null;
      if (user) ctx.identify({ userId: user.id });
      const channel = channelOf(input.channel);
      const report = (db: Db, coins: number) =>
        insertReport(
          db,
          input.id,
          input.action,
          input.app,
          input.platform,
          channel,
          input.deviceId,
          user?.id ?? 0,
          coins,
          Date.now(),
        );
      if (input.action !== 'install' || !user) {
        const [row] = await report(ctx.db, 0);
        if (!row) throw fail.notFound('推广应用不存在');
        return { rewarded: 0, coins: null };
      }
      // An install by a signed-in user: the reward's row and the ledger's grant in one transaction.
      // The unique (selfapp, user) index on paid rows lets exactly one of any number of copies pay.
      return ctx.inTransaction(async (tx) => {
        const selfapp = await tx.db
          .selectFrom('selfapps')
          .select(['name', 'reward_coins', 'enabled'])
          .where('id', '=', input.id)
          .executeTakeFirst();
        if (!selfapp) throw fail.notFound('推广应用不存在');
        const reward = Number(selfapp.reward_coins);
        if (reward > 0 && selfapp.enabled === 1) {
          const paid = await tx.db
            .insertInto('selfapp_records')
            .values({
              selfapp_id: input.id,
              action: 'install',
              app: input.app,
              platform: input.platform,
              channel,
              device_id: input.deviceId,
              user_id: user.id,
              coins: reward,
              created_at: Date.now(),
            })
            .onConflict((oc) => oc.columns(['selfapp_id', 'user_id']).where(sql<boolean>`coins > 0`).doNothing())
            .returning('id')
            .executeTakeFirst();
          if (paid) {
            const { balance } = await changeCoins(tx.db, {
              userId: user.id,
              delta: reward,
              reason: 'selfapp',
              refType: 'selfapp_install',
              refId: `${input.id}:${user.id}`,
              note: `安装“${selfapp.name}”奖励`,
            });
            return { rewarded: reward, coins: balance };
          }
        }
        await report(tx.db, 0);
        return { rewarded: 0, coins: null };
      });
    },
  },
});

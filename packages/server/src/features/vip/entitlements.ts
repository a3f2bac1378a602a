import type { userVipSegments } from '@appdesk/contract/constants';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { compiledOnce } from '../../db/compiled';
import type { Db } from '../../db/index';
import { inScope, inScopeSql } from '../../http/app-scope';

/** The expiry row of (user, app) by its primary key: read on every fetch/info, so compiled once, on SQLite in the main thread. */
const expiryByKey = compiledOnce(
  (db: Db, userId: number, app: string) =>
    db.selectFrom('vip_entitlements').select('expires_at').where('user_id', '=', userId).where('app', '=', app),
  { pointRead: true },
);

/** A user's VIP expiry in one app, or null when the user never had VIP time there. */
export async function vipExpiryOf(db: Db, userId: number, app: string): Promise<number | null> {
  const [row] = await expiryByKey(db, userId, app);
  return row === undefined ? null : Number(row.expires_at);
}

/** One app, several (an operator's scope: any of them), or undefined: any app. */
type Apps = string | readonly string[] | undefined;

/**
 * The users list's VIP column, read in the page's own statement (one probe of the primary key per
 * row): a second statement per page cost the list a third of its server time at 1M users. In
 * `app` (the latest of the apps given), or with no app the latest of any app's, as vipExpiries.
 */
export function vipExpiryColumn(app: Apps) {
  const inApp =
    app === undefined
      ? sql``
      : typeof app === 'string'
        ? sql` and v.app = ${app}`
        : sql` and ${inScopeSql('v.app', app)}`;
  // `+ 0`: PostgreSQL reads a bare max(expires_at) as "the last entry of the expiry index whose
  // user is this one", a backward walk of that whole index per row (0.9 ms each, 18 ms a page);
  // the sum is no index's column, so the user's few rows are read by the primary key (0.16 ms a page).
  return sql<
    number | null
  >`(select max(v.expires_at + 0) from vip_entitlements as v where v.user_id = users.id${inApp})`.as('vip_expires_at');
}

/**
 * The VIP expiry of each of these users: in `app` (the latest of the apps given), or with no app
 * the latest of any app's (the users list across apps). Users without one are absent.
 */
export async function vipExpiries(db: Db, userIds: readonly number[], app?: Apps): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  if (userIds.length === 0) return found;
  let query = db
    .selectFrom('vip_entitlements')
    .select(['user_id', (eb) => eb.fn.max('expires_at').as('expires_at')])
    .where('user_id', 'in', userIds)
    .groupBy('user_id');
  if (typeof app === 'string') query = query.where('app', '=', app);
  else if (app) query = query.where(inScope('vip_entitlements.app', app));
  for (const row of await query.execute()) found.set(row.user_id, Number(row.expires_at));
  return found;
}

/** Every app a user ever had VIP time in, with its expiry (the console's user detail). */
export async function vipEntitlementsOf(db: Db, userId: number): Promise<{ app: string; expiresAt: number }[]> {
  const rows = await db
    .selectFrom('vip_entitlements')
    .select(['app', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('app')
    .execute();
  return rows.map((r) => ({ app: r.app, expiresAt: Number(r.expires_at) }));
}

/**
 * How many VIP entitlements are live at `now`: in one app, or with no app in every app, each
 * (user, app) once, so the figure for all apps is the sum of the apps' (a user VIP in two apps
 * counts in both). Read from the (app, expires_at) and (expires_at, user_id) indexes.
 */
export async function vipCount(db: Db, app: string | undefined, now: number): Promise<number> {
  let query = db
    .selectFrom('vip_entitlements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('expires_at', '>', now);
  if (app !== undefined) query = query.where('app', '=', app);
  const row = await query.executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The users list's VIP segment as a condition on the `users` row: VIP time still ahead, lapsed
 * (had some, none ahead) or never had any; in `app`, or with no app across apps (active: VIP in
 * some app; lapsed: had VIP somewhere and is VIP nowhere; never: had VIP in no app). Several apps
 * (an operator's scope) are read as the apps together, as no app is across all of them.
 */
export function vipSegment(
  segment: (typeof userVipSegments)[number]['value'],
  app: Apps,
  now: number,
): RawBuilder<SqlBool> {
  if (typeof app === 'string' || app === undefined) return appSegment(segment, app, now);
  const inApps = sql`and ${inScopeSql('e.app', app)}`;
  if (segment === 'active') {
    return sql<SqlBool>`users.id in (select e.user_id from vip_entitlements as e where e.expires_at > ${now} ${inApps})`;
  }
  if (segment === 'never') {
    return sql<SqlBool>`not exists (select 1 from vip_entitlements as e where e.user_id = users.id ${inApps})`;
  }
  return sql<SqlBool>`users.id in (select e.user_id from vip_entitlements as e where ${inScopeSql('e.app', app)} group by e.user_id having max(e.expires_at) <= ${now})`;
}

function appSegment(
  segment: (typeof userVipSegments)[number]['value'],
  app: string | undefined,
  now: number,
): RawBuilder<SqlBool> {
  const inApp = app === undefined ? sql`` : sql`and e.app = ${app}`;
  if (segment === 'active') {
    return sql<SqlBool>`users.id in (select e.user_id from vip_entitlements as e where e.expires_at > ${now} ${inApp})`;
  }
  if (segment === 'never') {
    return sql<SqlBool>`not exists (select 1 from vip_entitlements as e where e.user_id = users.id ${inApp})`;
  }
  return app === undefined
    ? sql<SqlBool>`users.id in (select e.user_id from vip_entitlements as e group by e.user_id having max(e.expires_at) <= ${now})`
    : sql<SqlBool>`users.id in (select e.user_id from vip_entitlements as e where e.expires_at <= ${now} ${inApp})`;
}

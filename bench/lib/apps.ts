import { DEFAULT_APP } from '@appdesk/contract/constants';
import type Database from 'better-sqlite3';

/**
 * The two-app data set (issue 29): besides the first app, `quote` (名言) is registered and about
 * 30 % of every app-scoped record belongs to it, so the 1M-user figures are measured with two
 * apps' data in the tables.
 */
export const SECOND_APP = { code: 'quote', name: '名言', package: 'com.appdesk.quote' } as const;

/** Both apps' codes, the first app first. */
export const benchApps = [DEFAULT_APP, SECOND_APP.code] as const;

/** Share of the app-scoped records that belong to the second app. */
export const SECOND_APP_SHARE = 0.3;

/**
 * The app of the record (or user) `id`: a hash of the id, not a draw from the seed's random
 * stream, so every other column of a seeded row stays as it was with one app.
 */
export function appOfId(id: number): string {
  const hash = Math.imul(id ^ 0x2c1b3c6d, 0x9e3779b1) >>> 0;
  return hash / 4294967296 < SECOND_APP_SHARE ? SECOND_APP.code : DEFAULT_APP;
}

/** Whether `table` exists and has `column` (features add `app` to their tables over time). */
export function hasColumn(db: Database.Database, table: string, column: string): boolean {
  return (db.prepare('select 1 from pragma_table_info(?) where name = ?').get(table, column) ?? null) !== null;
}

/**
 * Registers the second app in the `apps` table, with the first app's channels and its own
 * package ids; does nothing on a schema without apps (a release before issue 29) or when it is
 * there already. Answers whether the database has the second app afterwards.
 */
export function registerSecondApp(db: Database.Database): boolean {
  if (!hasColumn(db, 'apps', 'code')) return false;
  const now = Date.now();
  db.prepare(
    `insert into apps (code, name, enabled, android_package, ios_bundle_id, channels, created_at, updated_at)
     select ?, ?, 1, ?, ?, channels, ?, ? from apps where code = ?
       and not exists (select 1 from apps where code = ?)`,
  ).run(
    SECOND_APP.code,
    SECOND_APP.name,
    SECOND_APP.package,
    SECOND_APP.package,
    now,
    now,
    DEFAULT_APP,
    SECOND_APP.code,
  );
  return db.prepare('select 1 from apps where code = ?').get(SECOND_APP.code) !== undefined;
}

import type { SelfappView } from '@appdesk/contract/endpoints/selfapp';
import type { SelfappRecord } from '@appdesk/contract/endpoints/selfapprecord';
import { maskPhone } from '@appdesk/contract/format';
import type { Selectable } from 'kysely';
import type { AppRecord } from '../../core/apps';
import type { Db } from '../../db/index';
import { iso } from '../../db/paging';
import { fail } from '../../http/errors';
import type { SelfappsTable } from './tables';

export type SelfappRow = Selectable<SelfappsTable>;

/** `apps` is stored comma-wrapped (`,tailor,`) so that `like '%,tailor,%'` finds one app. */
export const appsColumn = (list: readonly string[]) => `,${list.join(',')},`;
export const appsOf = (column: string) => column.split(',').filter(Boolean);

export function presentSelfapp(r: SelfappRow): SelfappView {
  return {
    id: r.id,
    name: r.name,
    icon: r.icon,
    description: r.description,
    packageId: r.package_id,
    androidUrl: r.android_url,
    iosUrl: r.ios_url,
    rewardCoins: Number(r.reward_coins),
    sort: r.sort,
    enabled: r.enabled === 1,
    apps: appsOf(r.apps),
    createdAt: iso(Number(r.created_at)),
    updatedAt: iso(Number(r.updated_at)),
  };
}

export async function loadSelfapp(db: Db, id: number): Promise<SelfappRow> {
  const row = await db.selectFrom('selfapps').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('推广应用不存在');
  return row;
}

/** The package ids of one of our apps: a promoted app with one of them is that app itself. */
export function ownPackages(app: AppRecord | undefined): string[] {
  return app ? [...new Set([app.androidPackage, app.iosBundleId].filter(Boolean))] : [];
}

/** Refuses a 展示位置 naming a code no app has (the contract checks only the codes' shape). */
export async function checkShowIn(apps: { get(code: string): Promise<AppRecord | undefined> }, codes: string[]) {
  for (const code of codes) if (!(await apps.get(code))) throw fail.badInput(`未知的应用：${code}`);
}

/** Android: the download URL, or the store's market link of the package when only that is set. */
export function platformUrl(r: Pick<SelfappRow, 'android_url' | 'ios_url' | 'package_id'>, platform: string) {
  if (platform === 'ios') return r.ios_url;
  return r.android_url || (r.package_id ? `market://details?id=${r.package_id}` : '');
}

/** Records with their promoted app's name and the user's phone (masked when presented). */
export function recordsWithNames(db: Db) {
  return db
    .selectFrom('selfapp_records')
    .leftJoin('selfapps', 'selfapps.id', 'selfapp_records.selfapp_id')
    .leftJoin('users', 'users.id', 'selfapp_records.user_id')
    .select([
      'selfapp_records.id',
      'selfapp_records.selfapp_id',
      'selfapp_records.action',
      'selfapp_records.app',
      'selfapp_records.platform',
      'selfapp_records.channel',
      'selfapp_records.device_id',
      'selfapp_records.user_id',
      'selfapp_records.coins',
      'selfapp_records.created_at',
      'selfapps.name as selfapp_name',
      'users.phone as user_phone',
    ]);
}

type RecordWithNames = Awaited<ReturnType<ReturnType<typeof recordsWithNames>['execute']>>[number];

export function presentRecord(r: RecordWithNames): SelfappRecord {
  return {
    id: r.id,
    selfappId: r.selfapp_id,
    selfappName: r.selfapp_name ?? '',
    action: r.action as SelfappRecord['action'],
    app: r.app,
    platform: r.platform as SelfappRecord['platform'],
    channel: r.channel,
    deviceId: r.device_id,
    userId: r.user_id,
    userPhone: r.user_phone ? maskPhone(r.user_phone) : null,
    coins: Number(r.coins),
    createdAt: iso(Number(r.created_at)),
  };
}

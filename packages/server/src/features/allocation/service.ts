import type { Allocation } from '@appdesk/contract/endpoints/allocation';
import type { Db } from '../../db/index';
import type { AllocationTable } from '../../db/schema';
import type { RequestContext } from '../../http/context';
import { RecentAnswers } from '../../http/recent-answers';

/** The one configuration row as the client sees it. */
export function presentAllocation(row: AllocationTable): Allocation {
  return {
    logo: row.logo,
    service: row.service,
    title: row.title,
    qq: row.qq,
    slogen: row.slogen,
    about: row.about,
    icp: row.icp,
    police: row.police,
    androidUrl: row.android_url,
    iosUrl: row.ios_url,
    hasAgreement: row.agreement.trim() !== '',
    hasPrivacy: row.privacy.trim() !== '',
    isInit: row.is_init === 1,
  };
}

/**
 * The public configuration, kept per server for half a second: every page and every app asks for
 * it first, and it changes a few times a year. This server's own changes drop the copy once they
 * commit (`forgetAllocation`); another server's show within the second instances promise each other.
 */
const kept = new RecentAnswers<Allocation>(500, 1);

export function fetchAllocation(ctx: RequestContext): Promise<Allocation> {
  return kept.get(ctx.config, 'allocation', async () => presentAllocation(await readAllocation(ctx.db)));
}

/** After a change: drops the kept copy now and again at commit (a read in between saw the old row). */
export function forgetAllocation(ctx: RequestContext): void {
  kept.forget(ctx.config);
  ctx.afterCommit(() => kept.forget(ctx.config));
}

export async function readAllocation(db: Db): Promise<AllocationTable> {
  return db.selectFrom('allocation').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

type Editable = Partial<Omit<AllocationTable, 'id' | 'is_init' | 'created_at' | 'updated_at'>>;

/** The settings form's fields and their columns. */
export const settingColumns = {
  title: 'title',
  slogen: 'slogen',
  qq: 'qq',
  about: 'about',
  icp: 'icp',
  police: 'police',
  androidUrl: 'android_url',
  iosUrl: 'ios_url',
  agreement: 'agreement',
  privacy: 'privacy',
} as const satisfies Record<string, keyof Editable>;
export type SettingField = keyof typeof settingColumns;

/** The settings form as it is stored. */
export function presentSettings(row: AllocationTable): Record<SettingField, string> {
  const entries = Object.entries(settingColumns).map(([field, column]) => [field, row[column]]);
  return Object.fromEntries(entries) as Record<SettingField, string>;
}

/** Changes some fields; returns the rows before and after for the audit log. */
export async function updateAllocation(db: Db, changes: Editable) {
  const before = await readAllocation(db);
  await db
    .updateTable('allocation')
    .set({ ...changes, updated_at: Date.now() })
    .where('id', '=', 1)
    .execute();
  const after = await readAllocation(db);
  return { before, after };
}

import type { Allocation } from '@appdesk/contract/endpoints/allocation';
import type { Db } from '../../db/index';
import type { AllocationTable } from '../../db/schema';

/** The one configuration row as the client sees it. */
export function presentAllocation(row: AllocationTable): Allocation {
  return {
    logo: row.logo,
    service: row.service,
    title: row.title,
    qq: row.qq,
    slogen: row.slogen,
    about: row.about,
    isInit: row.is_init === 1,
  };
}

export async function readAllocation(db: Db): Promise<AllocationTable> {
  return db.selectFrom('allocation').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

type Editable = Partial<Pick<AllocationTable, 'logo' | 'service' | 'title' | 'qq' | 'slogen' | 'about'>>;

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

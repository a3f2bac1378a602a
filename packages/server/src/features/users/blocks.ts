import { writeAudit } from '../../core/audit';
import type { Db } from '../../db/index';
import { fail } from '../../http/errors';

/**
 * The soonest end of any timed block, as this process last read it. The list and export ask at
 * most once per RECHECK_MS (one statement fewer on every list call, issue 14); a block set by this
 * process forgets it at once (forgetSoonestBlock), one set through another instance is lifted in
 * the lists within RECHECK_MS of its end. Sign-in checks the account's own row, never this.
 */
const RECHECK_MS = 1000;
let forgotten = 0;
const soonestRead = new WeakMap<Db, { at: number | null; readAt: number; generation: number }>();

/** After a timed block is set: the next list call reads the soonest end again. */
export function forgetSoonestBlock(): void {
  forgotten += 1;
}

/**
 * Timed blocks end by themselves: a block whose `blocked_until` has passed is lifted wherever
 * accounts are read (sign-in, the users list and detail, the block actions), so no timer is
 * needed and every server process agrees. A probe of the partial index of timed blocks comes
 * first, so reads take no write lock when nothing is due. Each lifted block leaves an
 * operation-log row without an operator (解除封禁, "封禁到期，自动解除").
 */
export async function liftDueBlocks(db: Db, onlyId?: number): Promise<void> {
  const now = Date.now();
  const remembered = onlyId === undefined && !db.isTransaction ? soonestRead.get(db) : undefined;
  if (
    remembered &&
    remembered.generation === forgotten &&
    now - remembered.readAt < RECHECK_MS &&
    (remembered.at === null || remembered.at > now)
  ) {
    return;
  }
  const generation = forgotten;
  // The probe is the soonest end of any timed block: min() over the partial index of timed blocks
  // on both databases. Asked as "one due row, LIMIT 1", SQLite took the status index and walked
  // every blocked account (44 ms at 1M users), and PostgreSQL, without statistics for the column,
  // scanned the table hoping for an early match (44 ms). A set blocked_until always goes with
  // status 'blocked' (every status change writes both); the update below checks it anyway.
  let soonest = db
    .selectFrom('users')
    .select((eb) => eb.fn.min('blocked_until').as('at'))
    .where('blocked_until', 'is not', null);
  if (onlyId !== undefined) soonest = soonest.where('id', '=', onlyId);
  const found = (await soonest.executeTakeFirst())?.at;
  const at = found === null || found === undefined ? null : Number(found);
  if (onlyId === undefined && !db.isTransaction) soonestRead.set(db, { at, readAt: now, generation });
  if (at === null || at > now) return;
  const lift = async (trx: Db) => {
    let update = trx
      .updateTable('users')
      .set({ status: 'normal', blocked_until: null, updated_at: now })
      .where('blocked_until', 'is not', null)
      .where('blocked_until', '<=', now)
      .where('status', '=', 'blocked');
    if (onlyId !== undefined) update = update.where('id', '=', onlyId);
    const lifted = await update.returning(['id']).execute();
    for (const { id } of lifted) {
      await writeAudit(trx, {
        actorId: null,
        action: 'users.unblock',
        targetType: 'user',
        targetId: id,
        before: { status: 'blocked' },
        after: { status: 'normal', reason: '封禁到期，自动解除' },
        ip: null,
      });
    }
  };
  if (db.isTransaction) await lift(db);
  else await db.transaction().execute(lift);
}

/** When a block asked to end at `until` ends, in epoch ms; null for a block without end. */
export function blockEnd(until: string | null): number | null {
  if (until === null) return null;
  const end = Date.parse(until);
  if (end <= Date.now()) throw fail.badInput('封禁截止时间必须晚于现在');
  return end;
}

import type { Db } from '../db/index';

/** Keys never written to the audit log, whatever a handler passes. */
const secretKeys = new Set(['password', 'password_hash', 'plainPassword', 'old', 'refresh', 'token', 'token_hash']);

function snapshot(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return JSON.stringify(value, (key, v) => (secretKeys.has(key) ? undefined : v));
}

export interface AuditRow {
  actorId: number | null;
  action: string;
  targetType: string;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
  ip: string | null;
}

/** Appends one row to the append-only audit log. */
export async function writeAudit(db: Db, entry: AuditRow): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId === undefined || entry.targetId === null ? null : String(entry.targetId),
      before: snapshot(entry.before),
      after: snapshot(entry.after),
      ip: entry.ip,
      created_at: Date.now(),
    })
    .execute();
}

/**
 * The contract sweep's checks of one call: an example against the operation log, and the reads
 * that must show back what a write was sent.
 */
import type { ApiPath, AuditDecl } from '@appdesk/contract';
import { exportAudit, signInAudit } from '@appdesk/contract/endpoints/audit';
import { expect, it } from 'vitest';
import { expectClean } from './clean';
import { type Answer, sampleUpload } from './harness';
import { idIn, type Prepared, readsElsewhere, type SweepContext } from './sweep-fixtures';
import { asSent, defOf, exampleOf, isRead, paths } from './sweep-variants';
import type { World } from './world';

/** What a call writes to the operation log: its declaration, or every export, or an administrator's sign-in. */
function loggedAs(p: ApiPath): AuditDecl | undefined {
  const def = defOf(p);
  if (def.audit) return def.audit;
  if (def.download === 'xlsx') return exportAudit(p, def.summary);
  return p === '/api/users/login' ? signInAudit : undefined;
}

/** An admin call that declares no operation-log row: a read, which changes nothing at all. */
export const isAdminRead = (p: ApiPath): boolean => defOf(p).access === 'admin' && !loggedAs(p);

/** Removals run last: the examples before them act on the records they would remove. */
export const isRemoval = (p: ApiPath): boolean => p.endsWith('/remove');

/** Bookkeeping a read may write: sessions' touch, sign-in throttles, the dashboard's daily snapshot of its state figures. */
export const bookkeeping = ['sessions', 'login_attempts', 'stat_snapshots'];

/** An endpoint's example as the generated tests send it (an upload: a sample file of its kind). */
export function callExample(world: World, p: ApiPath, token: string): Promise<Answer> {
  const upload = defOf(p).upload;
  return upload
    ? world.server.upload(p, upload.field, sampleUpload(upload.kind), 'example.png', token)
    : world.server.call(p, exampleOf(p), token);
}

/**
 * One test: the endpoint's example is clean and records its one operation-log row, or none; an
 * admin call reaches its handler. Called as the access level's caller (the first admin), or as
 * `callerOf(p)` (the permission matrix: an operator holding only the endpoint's permission).
 */
export function checkExample(worldOf: () => World, p: ApiPath, callerOf?: (p: ApiPath) => Promise<string>): void {
  const def = { ...defOf(p), audit: loggedAs(p) };
  const kind = def.audit ? `records one "${def.audit.action}" row` : 'records none';
  it(`${p}: its example ${kind}`, async () => {
    const world = worldOf();
    const db = world.server.app.services.db;
    const last = await db.selectFrom('audit_log').select(db.fn.max('id').as('id')).executeTakeFirst();
    const token = callerOf ? await callerOf(p) : await world.tokenFor(def.access);
    const runs = world.server.handlerRuns.get(p) ?? 0;
    const answer = await callExample(world, p, token);
    expectClean(answer);
    // Past the sign-in and permission checks: a valid example always reaches an operator's handler.
    if (def.access === 'admin') {
      expect(world.server.handlerRuns.get(p) ?? 0, answer.text.slice(0, 200)).toBe(runs + 1);
    }
    const added = await db
      .selectFrom('audit_log')
      .select('action')
      .where('id', '>', Number(last?.id ?? 0))
      .orderBy('id')
      .execute();
    // A download answers the file itself, not the JSON envelope.
    const code = def.download ? answer.status : answer.body.code;
    if (def.audit && def.access === 'admin')
      expect([code, answer.text.slice(0, 200)]).toEqual([200, expect.anything()]);
    // A batch records one row per record that succeeded (its example's record may be gone by now).
    const rows = def.batchOf ? (answer.body.data as { succeeded: number }).succeeded : 1;
    if (def.audit && code === 200 && rows > 0) {
      expect(added.map((r) => r.action)).toEqual(Array(rows).fill(def.audit.action));
      expect(def.audit.label).toMatch(/^[\u4e00-\u9fa5]/);
      const page = await world.server.call('/api/audit/fetch/page', { size: 1 }, await world.tokenFor('admin'));
      expect((page.body.data as { list: { actionLabel: string }[] }).list[0].actionLabel).toBe(def.audit.label);
    } else {
      expect(added).toEqual([]);
    }
  });
}

/** `path field` of a free-text field → the read that showed its marked value back. */
export type Kept = Map<string, ApiPath>;

/**
 * The reads that may show what a write of this feature kept: the feature's own (not downloads),
 * any declared elsewhere, and the operation log for a declared write.
 */
function readsFor(p: ApiPath): ApiPath[] {
  const feature = p.split('/')[2];
  const own = paths.filter((r) => r.split('/')[2] === feature && isRead(r) && !defOf(r).download && !defOf(r).upload);
  return [...own, ...(readsElsewhere[p] ?? []), ...(defOf(p).audit ? ['/api/audit/fetch/page' as const] : [])];
}

/**
 * A read's example, on the record the write acted on; a list's first 100 rows (newest first on
 * most lists, and the write's record is the newest or named by id). The operation log: its last row.
 */
function readBody(r: ApiPath, recordId?: number): Record<string, unknown> {
  if (r === '/api/audit/fetch/page') return { size: 1 };
  const example = exampleOf(r);
  const body = 'id' in example && recordId !== undefined ? { ...example, id: recordId } : example;
  return defOf(r).input.safeParse({ ...body, size: 100 }).success ? { ...body, size: 100 } : body;
}

/** The ids of a list's first rows: the records a detail read may then be asked about. */
const listedIds = (data: unknown): number[] =>
  ((data as { list?: unknown } | null)?.list as { id?: unknown }[] | undefined)
    ?.slice(0, 3)
    .flatMap((row) => (typeof row?.id === 'number' ? [row.id] : [])) ?? [];

/**
 * Reads until one shows `marked` back (whole, as the write was sent it), right after the write:
 * the read that did, or none. Lists first, then each detail read on the write's record, or on the
 * lists' first rows when the write did not say which record it made. A user's read is made as the
 * writer when the write was an app's.
 */
export async function readBack(
  s: SweepContext,
  p: ApiPath,
  marked: string,
  prepared: Prepared,
  answer: Answer,
  writer: string,
): Promise<ApiPath | undefined> {
  await prepared.reveal?.();
  const recordId = prepared.recordId ?? idIn(answer.body.data);
  const needle = JSON.stringify(marked).slice(1, -1);
  const read = async (r: ApiPath, id?: number) => {
    const access = defOf(r).access;
    const token = access === 'user' && defOf(p).access === 'user' ? writer : await s.tokenFor(access);
    const shown = await s.world.server.call(r, readBody(r, id), token);
    return { shown: JSON.stringify(asSent(shown.body)).includes(needle), data: shown.body.data };
  };
  const reads = readsFor(p);
  const details = reads.filter((r) => 'id' in exampleOf(r));
  const ids = new Set(recordId === undefined ? [] : [recordId]);
  for (const r of reads.filter((r) => !details.includes(r))) {
    const { shown, data } = await read(r);
    if (shown) return r;
    if (recordId === undefined) for (const id of listedIds(data)) ids.add(id);
  }
  // No record known: the detail reads' examples, as they are.
  for (const r of details) for (const id of ids.size ? ids : [undefined]) if ((await read(r, id)).shown) return r;
  return undefined;
}

/** The tables whose rows differ between two snapshots (snapshotTables), with a row of each side. */
export function changedTables(before: string, after: string): string[] {
  const [a, b] = [JSON.parse(before), JSON.parse(after)] as Record<string, string[]>[];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((table) => JSON.stringify(a[table]) !== JSON.stringify(b[table]))
    .map((table) => {
      const gone = (a[table] ?? []).filter((row) => !(b[table] ?? []).includes(row));
      const added = (b[table] ?? []).filter((row) => !(a[table] ?? []).includes(row));
      return `${table}: ${gone.length} rows gone (${gone[0]?.slice(0, 200)}), ${added.length} new (${added[0]?.slice(0, 200)})`;
    });
}

import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/index';
import { fail } from './errors';

/**
 * Idempotency-Key (docs/architecture.md#identity): an endpoint declared `idempotent: true` in the contract
 * accepts the header; the same key from the same caller within 24 hours answers the first
 * successful result and does nothing again, also when the copies arrive at once.
 *
 * How: the call runs in one transaction whose first statement reserves the (caller, key) row
 * under a unique index; the handler's writes and the answer commit with it. A concurrent copy's
 * reservation waits on that index until the first commits (PostgreSQL) or waits for the write lock
 * (SQLite), then finds the stored answer. A call that fails rolls its reservation back with
 * everything else, so a retry after a failure runs again.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface Idempotency {
  scope: string;
  key: string;
  path: string;
  fingerprint: string;
}

/** Reads and checks the header; undefined when the caller sent none. */
export function idempotencyOf(
  request: FastifyRequest,
  path: string,
  userId: number | null,
  input: unknown,
): Idempotency | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw fail.badInput('Idempotency-Key 应为 1–255 个可见 ASCII 字符（建议每个操作用一个新的 UUID）');
  }
  const fingerprint = createHash('sha256')
    .update(`${path}\n${stableJson(withoutSecrets(input))}`)
    .digest('hex');
  return { scope: userId === null ? 'public' : `user:${userId}`, key, path, fingerprint };
}

/** Input fields holding a password (its digest, as the apps send it). */
export const PASSWORD_NAME = /password/i;

/**
 * The input without its password fields: a fast hash over a password digest would let whoever
 * reads the table (or a backup) test guesses at that hash's speed, around argon2. A route that
 * takes a password checks it again on replay (its `replay`, route.ts), so leaving it out loses nothing.
 */
function withoutSecrets(input: unknown): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([name]) => !PASSWORD_NAME.test(name)));
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const mismatch = () => fail.conflict('该 Idempotency-Key 已用于另一个请求（接口或参数不同），请为新的操作换一个新的键');

/** The stored answer of an earlier call with this key, if it succeeded within the window. */
export async function earlierAnswer(db: Db, id: Idempotency, now = Date.now()): Promise<{ data: unknown } | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'answer'])
    .where('scope', '=', id.scope)
    .where('key', '=', id.key)
    .where('created_at', '>', now - IDEMPOTENCY_WINDOW_MS)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.fingerprint !== id.fingerprint) throw mismatch();
  if (row.answer === null) return undefined;
  return { data: JSON.parse(row.answer) };
}

/**
 * Inside the call's transaction: claims the key (an expired row is taken over), or answers the
 * first call's result when it already holds it. Returns the reserved row's id, or the answer.
 */
export async function reserve(
  trx: Db,
  id: Idempotency,
  now = Date.now(),
): Promise<{ reserved: number } | { replay: { data: unknown } }> {
  if (Math.random() < 0.01) {
    // Now and then, forget keys past the window (bounded, so no call pays much for it).
    await trx
      .deleteFrom('idempotency_keys')
      .where(
        'id',
        'in',
        trx
          .selectFrom('idempotency_keys')
          .select('id')
          .where('created_at', '<=', now - IDEMPOTENCY_WINDOW_MS)
          .limit(500),
      )
      .execute();
  }
  const cutoff = now - IDEMPOTENCY_WINDOW_MS;
  const row = await trx
    .insertInto('idempotency_keys')
    .values({ scope: id.scope, key: id.key, path: id.path, fingerprint: id.fingerprint, answer: null, created_at: now })
    .onConflict((oc) =>
      oc
        .columns(['scope', 'key'])
        .doUpdateSet({
          path: id.path,
          fingerprint: id.fingerprint,
          answer: null,
          created_at: now,
        })
        .where(sql.ref('idempotency_keys.created_at'), '<=', cutoff),
    )
    .returning('id')
    .executeTakeFirst();
  if (row) return { reserved: row.id };
  const earlier = await earlierAnswer(trx, id, now);
  if (earlier) return { replay: earlier };
  // Not reachable on either database (the first copy has committed or rolled back by now).
  throw fail.conflict('同一 Idempotency-Key 的请求正在处理，请稍后重试');
}

/** Keeps the answer with the reservation, in the same transaction as the call's writes. */
export async function keepAnswer(trx: Db, reservedId: number, data: unknown): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ answer: JSON.stringify(data ?? null) })
    .where('id', '=', reservedId)
    .execute();
}

/** What an idempotency row keeps of an answer that holds a secret: that it succeeded, no more. */
export const WITHHELD = { withheld: 'answered again on replay' };

/** Secret-looking field names in an answer (a session token, a password, a key's secret). */
const SECRET_NAME = /token|secret|password/i;

/**
 * Whether an endpoint answers a secret or takes a password. An idempotent one must not store the
 * secret, and leaves the password out of the key's fingerprint (above), so its replay has to check
 * it again: such an endpoint must declare `replay`.
 */
export function holdsSecret(def: { input: z.ZodType; output: z.ZodType }): boolean {
  return namesField(def.output, SECRET_NAME) || namesField(def.input, PASSWORD_NAME);
}

function namesField(schema: z.ZodType, pattern: RegExp): boolean {
  const names: string[] = [];
  JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }), (key, value) => {
    if (key === 'properties' && value && typeof value === 'object') names.push(...Object.keys(value));
    return value;
  });
  return names.some((name) => pattern.test(name));
}

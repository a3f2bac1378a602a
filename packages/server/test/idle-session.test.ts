/**
 * A session unused for a minute is touched (its sliding expiry extended) by the next call that
 * presents it. That touch is a write: made on another connection while the call's own transaction
 * holds SQLite's writer turn, it waited for itself for the busy timeout and answered 503, on every
 * resend. Generated from the contract, so every endpoint is called with an idle session: signed-in
 * ones with their caller's, public ones with an app user's (which some of them look up).
 * The idle minute is made by moving the session's last use back in the database, not by waiting.
 */
import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/core/sessions';
import { expectClean } from './clean';
import { type Answer, sampleUpload } from './harness';
import { startWorld, type World } from './world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  // The first export loads the workbook writer (seconds under a loaded machine), which is not what is timed here.
  await import('exceljs');
});
afterAll(async () => {
  await world.server.close();
});

const IDLE_MS = 65_000;

/** A new session of the account the endpoint is called as, last used IDLE_MS ago. */
async function idleToken(def: EndpointDef): Promise<string> {
  const token = await world.tokenOf(def.access === 'admin' ? world.adminId : world.callerId);
  await world.server.app.services.db
    .updateTable('sessions')
    .set({ last_used_at: Date.now() - IDLE_MS })
    .where('token_hash', '=', hashToken(token))
    .execute();
  return token;
}

async function callIdle(p: ApiPath, def: EndpointDef, token: string, key: number): Promise<Answer> {
  const s = world.server;
  if (def.upload) return s.upload(p, def.upload.field, sampleUpload(def.upload.kind), 'example.png', token);
  return s.raw(p, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      token,
      ...(def.idempotent ? { 'Idempotency-Key': `idle-${key}` } : {}),
    },
    body: JSON.stringify(def.example ?? {}),
  });
}

describe('a call presenting a session idle for over a minute', () => {
  let key = 0;
  // In table order, as the contract sweep: a feature's `make` example creates what later ones name.
  for (const p of Object.keys(endpoints) as ApiPath[]) {
    const def = endpoints[p] as EndpointDef;
    it(`${p} answers at once, never 503`, async () => {
      const token = await idleToken(def);
      const started = performance.now();
      const answer = await callIdle(p, def, token, key++);
      const ms = performance.now() - started;
      expectClean(answer);
      expect([answer.body.code, answer.body.message]).not.toEqual([503, expect.anything()]);
      // The busy timeout is 5 s; a call that waited for its own transaction took all of it (and a
      // busy machine may take a second or two for an honest one).
      expect(ms).toBeLessThan(4_500);
      if (answeredOk.includes(p)) {
        expect([answer.body.code, answer.body.message]).toEqual([200, expect.any(String)]);
        // The session that was presented has been used, so its sliding expiry moved on.
        expect(await lastUsed(token)).toBeGreaterThan(Date.now() - IDLE_MS / 2);
      }
    });
  }
});

/** Public writes in a transaction that look the presented session up (a signed-in app's feedback, a resent sign-up). */
const answeredOk: ApiPath[] = ['/api/feedback/make', '/api/users/register'];

async function lastUsed(token: string): Promise<number> {
  const row = await world.server.app.services.db
    .selectFrom('sessions')
    .select('last_used_at')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirstOrThrow();
  return Number(row.last_used_at);
}

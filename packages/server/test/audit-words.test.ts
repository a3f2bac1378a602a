/**
 * The operation log in words: every endpoint's example is called in table order (as the contract
 * sweep does, so each write has its record), then every row of the log is read back and each
 * change's name and values must be Chinese, or Latin words the allow-list knows: product and
 * format names, units, and what the examples themselves typed (names, package ids, addresses).
 */
import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sampleUpload } from './harness';
import { latinWordsOutside, productWords } from './words';
import { startWorld, type World } from './world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.server.close();
});

type Change = { field: string; label: string; before: string | null; after: string | null };
type Entry = { id: number; action: string; actionLabel: string; targetLabel: string; changes: Change[] };

/** Every string an example sends (what an operator or an app typed), however deep. */
function typed(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) typed(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) typed(item, into);
  return into;
}

it('names every change of every kind of write in words', async () => {
  const paths = Object.keys(endpoints) as ApiPath[];
  const allowed = new Set(productWords);
  // What the harness's client and uploads send of their own.
  for (const word of ['node', 'example', 'png', 'wav', 'apk']) allowed.add(word);
  for (const p of paths) {
    const def = endpoints[p] as EndpointDef;
    for (const text of typed(def.example ?? {})) for (const word of latinWordsOutside(text, allowed)) allowed.add(word);
    const token = await world.tokenFor(def.access);
    if (def.upload) await world.server.upload(p, def.upload.field, sampleUpload(def.upload.kind), 'example.png', token);
    else await world.server.call(p, def.example ?? {}, token);
  }
  const entries: Entry[] = [];
  const admin = await world.tokenFor('admin');
  for (let page = 0; ; page++) {
    const answer = await world.server.call('/api/audit/fetch/page', { page, size: 200 }, admin);
    const data = answer.body.data as { list: Entry[] };
    entries.push(...data.list);
    if (data.list.length < 200) break;
  }
  const actions = new Set(entries.map((e) => e.action));
  // Every declared write whose example succeeded is in the log (most are).
  expect(actions.size).toBeGreaterThan(80);
  const raw: string[] = [];
  for (const e of entries) {
    for (const text of [e.actionLabel, e.targetLabel]) {
      const words = latinWordsOutside(text, allowed);
      if (words.length) raw.push(`${e.action}: ${text}`);
    }
    for (const c of e.changes) {
      // An address (a download link, a store link made from one) is a value, whatever its letters.
      const values = [c.before, c.after].map((v) => (v ?? '').replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/g, ''));
      const words = [c.label, ...values].flatMap((t) => latinWordsOutside(t, allowed));
      if (words.length) raw.push(`${e.action} ${c.field}: ${c.label} ${c.before} → ${c.after} [${words.join(' ')}]`);
    }
  }
  expect(raw).toEqual([]);
}, 300_000);

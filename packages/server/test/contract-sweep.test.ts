/**
 * Generated from the contract's endpoint table, so every new endpoint is covered without anyone
 * remembering (docs/architecture.md#tests):
 * - each endpoint's example is valid, and each declared write records exactly one operation-log
 *   row with its Chinese label, while every other admin call changes nothing (removals run last);
 * - a hostile sweep: every field of every endpoint's example is replaced, one at a time, by each
 *   hostile value. The refused ones are judged on the endpoint's schema (the server validates with
 *   that schema and nothing else, which a sample of them per endpoint proves over HTTP); the valid
 *   ones must reach the handler over HTTP, on a record that exists (sweep-fixtures.ts), and every
 *   free-text field is stored and read back at least once. Nothing may fault or leak.
 */
import type { ApiPath } from '@appdesk/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { envelope } from '../src/http/route';
import { describeIssue } from '../src/http/validation';
import { expectClean } from './clean';
import { sampleUpload, snapshotTables } from './harness';
import { bookkeeping, changedTables, checkExample, isAdminRead, isRemoval, type Kept, readBack } from './sweep-checks';
import { fixtures, lookupFields, notShown, type Prepared, sweepContext, uploadWith } from './sweep-fixtures';
import { malformedJson, malformedMultipart, notAnObject, sampleOf } from './sweep-refusals';
import {
  asSent,
  defOf,
  exampleOf,
  fieldsOf,
  hostileValues,
  isRead,
  markedTexts,
  paths,
  textFields,
  variantsOf,
} from './sweep-variants';
import { startWorld, type World } from './world';

let world: World;
const sweep = sweepContext(() => world);
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.server.close();
});

describe('examples and the operation log', () => {
  it('every endpoint has a valid example input', () => {
    for (const p of paths) {
      const parsed = defOf(p).input.safeParse(exampleOf(p));
      expect(parsed.success, `${p}: ${parsed.error?.message}`).toBe(true);
    }
  });

  // In table order: a feature's `make` example creates the record its later examples name.
  for (const p of paths.filter((p) => !isRemoval(p) && !isAdminRead(p))) checkExample(() => world, p);

  describe("the operators' reads, after every write", () => {
    // All of them between two snapshots: together they change nothing at all. The update checks
    // and prompts the apps' examples made are counted in memory first; the statistics read writes
    // them out before it reads, so it is asked once before the first snapshot.
    let before: string;
    beforeAll(async () => {
      await sweep.made('/api/version/fetch/stats', exampleOf('/api/version/fetch/stats'));
      before = await snapshotTables(world.server, bookkeeping);
    });
    for (const p of paths.filter(isAdminRead)) checkExample(() => world, p);
    it('changed no row with any of these calls', async () => {
      expect(changedTables(before, await snapshotTables(world.server, bookkeeping))).toEqual([]);
    });
  });
});

const tally = { endpoints: 0, fields: 0, variants: 0, refused: 0, refusedOverHttp: 0, reached: 0, marked: 0 };

/** The words the route answers a refused input with: the schema's first issue, in Chinese. */
function refusalOf(p: ApiPath, body: unknown, name: string): string {
  const def = defOf(p);
  const parsed = def.input.safeParse(body);
  if (parsed.success) throw new Error(`${p}: ${name} was judged refused`);
  const message = describeIssue(def.input, body, parsed.error);
  expect(message, name).toMatch(/[\u4e00-\u9fa5]/);
  const answer = envelope(400, message);
  expectClean({ status: 200, body: answer, text: JSON.stringify(answer), headers: new Headers() });
  return message;
}

describe('hostile values against each schema (no server: the route validates with this schema)', () => {
  for (const p of paths) {
    it(`${p}: each refused value gets a Chinese 400 that names no internals`, () => {
      tally.endpoints += 1;
      tally.fields += fieldsOf(p).length;
      for (const { body, name, valid } of variantsOf(p)) {
        tally.variants += 1;
        if (valid) continue;
        tally.refused += 1;
        refusalOf(p, body, name);
      }
      // JSON that is no object (an upload's form is never JSON).
      if (!defOf(p).upload) for (const body of notAnObject) refusalOf(p, body, JSON.stringify(body));
    });
  }
});

describe('refused before the handler, over HTTP', () => {
  // Every refused call of every endpoint between two snapshots: together they change no row.
  let before: string;
  beforeAll(async () => {
    before = await snapshotTables(world.server, bookkeeping);
  });

  paths.forEach((p, i) => {
    const def = defOf(p);
    // One body of each kind per endpoint, in turn (each kind on every third endpoint): the parser
    // is the server's, the same for every route; what a route does with its input is below.
    const notObject = notAnObject[i % notAnObject.length];
    const badJson = malformedJson[i % malformedJson.length];
    it(`${p}: no JSON object, bad JSON and a sample of refused values never reach the handler`, async () => {
      const token = await world.tokenFor(def.access);
      const runs = world.server.handlerRuns.get(p) ?? 0;
      const answer = await world.server.call(p, notObject, token);
      expectClean(answer);
      const sent = JSON.stringify(notObject);
      expect([sent, answer.body.code]).toEqual([sent, 400]);
      if (!def.upload) expect(answer.body.message).toBe(refusalOf(p, notObject, sent));
      const broken = await world.server.raw(p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token },
        body: badJson,
      });
      expectClean(broken);
      expect([badJson, broken.status, broken.body.code]).toEqual([badJson, 400, 400]);
      const wrongType = await world.server.raw(p, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', token },
        body: 'x',
      });
      expectClean(wrongType);
      expect(wrongType.body.code).toBe(415);
      // The route answers exactly what the schema judged: the same schema, the same words.
      for (const { body, name } of sampleOf(variantsOf(p).filter((v) => !v.valid))) {
        const answer = def.upload ? await uploadWith(sweep, p, body, token) : await world.server.call(p, body, token);
        expectClean(answer);
        expect([name, answer.body.code, answer.body.message]).toEqual([name, 400, refusalOf(p, body, name)]);
        tally.refusedOverHttp += 1;
      }
      expect(world.server.handlerRuns.get(p) ?? 0).toBe(runs);
    });
  });

  it('changed no row with any of these calls', async () => {
    expect(changedTables(before, await snapshotTables(world.server, bookkeeping))).toEqual([]);
  });

  for (const p of paths) {
    const def = defOf(p);
    if (def.upload) {
      const { field, kind } = def.upload;
      it(`${p}: uploads that are not what they claim change no row`, async () => {
        const cases: [string, Uint8Array, number][] = [
          [field, new TextEncoder().encode('#!/bin/sh\nrm -rf /'), 415],
          [field, new Uint8Array(0), 400],
          [`${field}x`, sampleUpload(kind), 400],
        ];
        const token = await world.tokenFor(def.access);
        // Every table, the upload quotas' counters among them: a refused upload is not charged. The
        // session's own bookkeeping aside (an admin call marks a fresh session as the console's).
        const before = await snapshotTables(world.server, ['sessions']);
        for (const [name, bytes, code] of cases) {
          const answer = await world.server.upload(p, name, bytes, 'x.png', token);
          expectClean(answer);
          expect([name, answer.body.code]).toEqual([name, code]);
        }
        expect(await snapshotTables(world.server, ['sessions'])).toBe(before);
      });

      it(`${p}: malformed multipart bodies answer 400 in Chinese, change no row and log no error`, async () => {
        const token = await world.tokenFor(def.access);
        const before = await snapshotTables(world.server, ['sessions']);
        const runs = world.server.handlerRuns.get(p) ?? 0;
        for (const { name, type, body } of malformedMultipart(field, kind)) {
          const seen = world.server.logs.length;
          const answer = await world.server.raw(p, {
            method: 'POST',
            headers: { 'content-type': type, token },
            body: new Uint8Array(body),
          });
          expectClean(answer);
          expect([name, answer.body.code]).toEqual([name, 400]);
          expect(answer.body.message, name).toMatch(/[\u4e00-\u9fa5]/);
          const errors = world.server.logs.slice(seen).filter((line) => /"level":(50|60)/.test(line));
          expect(errors, name).toEqual([]);
        }
        expect(world.server.handlerRuns.get(p) ?? 0).toBe(runs);
        expect(await snapshotTables(world.server, ['sessions'])).toBe(before);
      });
    }
  }
});

/** Where each free-text field's marked value was read back: `path field` → the read that showed it. */
const kept: Kept = new Map();
/** Why a free-text field was not: what its marked calls answered, or the reads that did not show it. */
const whyNot = new Map<string, string>();

/** One valid variant over HTTP, on what its fixture made: it must reach the handler, cleanly. */
async function callValid(p: ApiPath, field: string, value: unknown, name: string, caller: string) {
  const def = defOf(p);
  const prepared: Prepared = (await fixtures[p]?.(sweep, exampleOf(p))) ?? { body: exampleOf(p) };
  const body = asSent({ ...prepared.body, [field]: value });
  expect(def.input.safeParse(body).success, `${name}: refused on the fixture's record`).toBe(true);
  const token = prepared.token ?? caller;
  const runs = world.server.handlerRuns.get(p) ?? 0;
  const answer = def.upload ? await uploadWith(sweep, p, body, token) : await world.server.call(p, body, token);
  expectClean(answer);
  expect(world.server.handlerRuns.get(p) ?? 0, `${name} never reached the handler`).toBe(runs + 1);
  tally.reached += 1;
  // Not found, a conflict or a limit: the variant met no record it could act on.
  const code = def.download ? answer.status : answer.body.code;
  const missed = [404, 409, 429].includes(code) && !lookupFields[p]?.includes(field);
  return { answer, code, prepared, token, missed: missed ? `${name}: ${code} ${answer.body.message}` : undefined };
}

describe('valid variants, on records that exist', () => {
  // Each test its own sessions, which nothing before it can have ended.
  beforeEach(() => {
    sweep.forgetTokens();
  });

  afterAll(() => {
    console.log(
      `hostile sweep: ${tally.endpoints} endpoints, ${tally.fields} fields × ${hostileValues.length} values = ` +
        `${tally.variants} variants; ${tally.refused} refused by their schema (${tally.refusedOverHttp} of them ` +
        `also over HTTP), ${tally.reached} valid calls reached their handler (${tally.marked} of them with a ` +
        'marked text that a read must show back)',
    );
    expect(tally.variants).toBe(tally.fields * hostileValues.length);
  });

  for (const p of paths) {
    const valid = variantsOf(p).filter((v) => v.valid);
    const marked = isRead(p) ? [] : textFields().filter((t) => t.p === p);
    if (valid.length + marked.length === 0) continue;
    it(`${p}: each valid variant reaches its handler on a record that exists`, async () => {
      const missed: string[] = [];
      const caller = await sweep.tokenFor(defOf(p).access);
      for (const { field, value, name } of valid) {
        const call = await callValid(p, field, value, name, caller);
        if (call.missed) missed.push(call.missed);
      }
      // Each free-text field once more, with a marked text that a read must then show back.
      for (const { field } of marked) {
        const tried: string[] = [];
        for (const value of markedTexts(p, field, sweep.serial()).slice(0, 4)) {
          const call = await callValid(p, field, value, `${field} = ${JSON.stringify(value)}`, caller);
          tally.marked += 1;
          if (call.missed) missed.push(call.missed);
          if (call.code !== 200) {
            tried.push(`${JSON.stringify(value)} answered ${call.code} ${call.answer.body.message}`);
            continue;
          }
          const where = await readBack(sweep, p, value, call.prepared, call.answer, call.token);
          if (where) kept.set(`${p} ${field}`, where);
          else tried.push(`${JSON.stringify(value)} was stored by no read`);
          break;
        }
        if (!kept.has(`${p} ${field}`)) whyNot.set(`${p} ${field}`, tried.join('; ') || 'no marked text');
      }
      expect(missed).toEqual([]);
    });
  }
});

describe('removals, last', () => {
  for (const p of paths.filter(isRemoval)) checkExample(() => world, p);
});

// After the whole sweep: which free-text fields no read ever showed back.
it('stores and reads back every free-text field of every endpoint that keeps what it is sent', () => {
  const expected = textFields().filter(({ p, field }) => !isRead(p) && !notShown[p]?.[field]);
  const lost = expected
    .filter(({ p, field }) => !kept.has(`${p} ${field}`))
    .map(({ p, field }) => `${p} ${field}: ${whyNot.get(`${p} ${field}`)}`);
  console.log(`free text: ${expected.length - lost.length} of ${expected.length} fields stored and read back`);
  expect(lost).toEqual([]);
  // A field declared as not kept that a read shows after all is kept: the declaration is stale.
  const declared = Object.entries(notShown).flatMap(([p, fields]) => Object.keys(fields ?? {}).map((f) => `${p} ${f}`));
  expect(declared.filter((key) => kept.has(key))).toEqual([]);
});

// Last in the file: every call above was a client's doing, valid or hostile; none is the server's fault.
it('holds no error-level line in the log: client mistakes are logged at most as warnings', () => {
  const errors = world.server.logs.filter((line) => /"level":(50|60)/.test(line));
  expect(errors.map((line) => line.slice(0, 300))).toEqual([]);
});

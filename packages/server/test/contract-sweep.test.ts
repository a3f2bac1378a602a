/**
 * Generated from the contract's endpoint table, so every new endpoint is covered without anyone
 * remembering (docs/architecture.md#tests):
 * - each endpoint's example is valid, and each declared write records exactly one operation-log
 *   row with its Chinese label, while every other admin call changes nothing;
 * - a hostile sweep: every field of every endpoint's example is replaced, one at a time, by each
 *   hostile value; valid variants must reach the handler, invalid ones must be refused with a
 *   Chinese 400 before it and change no row; nothing may fault or leak.
 */
import { type ApiPath, type AuditDecl, type EndpointDef, endpoints } from '@appdesk/contract';
import { exportAudit, signInAudit } from '@appdesk/contract/endpoints/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectClean } from './clean';
import { type Answer, sampleUpload, snapshotTables } from './harness';
import { startWorld, type World } from './world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world.server.close();
});

const paths = Object.keys(endpoints) as ApiPath[];
const defOf = (p: ApiPath) => endpoints[p] as EndpointDef;
const exampleOf = (p: ApiPath) => (defOf(p).example ?? {}) as Record<string, unknown>;
// Bookkeeping a read may write: sessions' touch, sign-in throttles, the dashboard's daily snapshot of its state figures.
const bookkeeping = ['sessions', 'login_attempts', 'stat_snapshots'];

async function callExample(p: ApiPath, body: unknown = exampleOf(p)): Promise<Answer> {
  const def = defOf(p);
  const token = await world.tokenFor(def.access);
  if (def.upload) return world.server.upload(p, def.upload.field, sampleUpload(def.upload.kind), 'example.png', token);
  return world.server.call(p, body, token);
}

/** What a call writes to the operation log: its declaration, or every export, or an administrator's sign-in. */
function loggedAs(p: ApiPath): AuditDecl | undefined {
  const def = defOf(p);
  if (def.audit) return def.audit;
  if (def.download === 'xlsx') return exportAudit(p, def.summary);
  return p === '/api/users/login' ? signInAudit : undefined;
}

const auditRows = () => world.server.app.services.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

describe('examples and the operation log', () => {
  it('every endpoint has a valid example input', () => {
    for (const p of paths) {
      const parsed = defOf(p).input.safeParse(exampleOf(p));
      expect(parsed.success, `${p}: ${parsed.error?.message}`).toBe(true);
    }
  });

  // In table order: a feature's `make` example creates the record its later examples name.
  for (const p of paths) {
    const def = { ...defOf(p), audit: loggedAs(p) };
    const kind = def.audit ? `records one "${def.audit.action}" row` : 'records none';
    it(`${p}: its example ${kind}`, async () => {
      const before = await auditRows();
      const snapshot = def.audit ? '' : await snapshotTables(world.server, bookkeeping);
      const answer = await callExample(p);
      expectClean(answer);
      const added = (await auditRows()).slice(before.length);
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
      // An admin call that declares no audit row is a read: it changes nothing at all.
      if (!def.audit && def.access === 'admin') expect(await snapshotTables(world.server, bookkeeping)).toBe(snapshot);
    });
  }
});

const hostileText = [
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  'a\u0000b',
  '１３８００１３８０００',
  '😀'.repeat(20),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, on purpose
  '${jndi:ldap://x}',
  '',
  'not-a-member',
  'x'.repeat(200_000),
];
/** Every field of every endpoint gets each of these in turn. */
const hostileValues: unknown[] = [
  ...hostileText,
  0,
  -1,
  1.5,
  // Integer edges: past int4 (PostgreSQL `integer`), past int8 and past exact doubles (issue 7).
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  2 ** 63,
  -1e20,
  true,
  null,
  {},
  ['x'],
  { $gt: '' },
];

const describeValue = (v: unknown) => JSON.stringify(v)?.slice(0, 24) ?? String(v);
const tally = { endpoints: 0, fields: 0, calls: 0, reached: 0, refused: 0 };

describe('hostile sweep', () => {
  afterAll(() => {
    console.log(
      `hostile sweep: ${tally.endpoints} endpoints, ${tally.fields} fields × ${hostileValues.length} values = ` +
        `${tally.calls} calls; ${tally.reached} reached their handler, ${tally.refused} refused by validation ` +
        '(each refused value is one its field does not accept)',
    );
    expect(tally.reached + tally.refused).toBe(tally.calls);
    expect(tally.calls).toBe(tally.fields * hostileValues.length);
  });

  for (const p of paths) {
    const def = defOf(p);
    if (def.upload) continue; // Multipart: covered by the upload cases below.
    it(`${p}: each field × each hostile value reaches the handler exactly when valid`, async () => {
      const example = exampleOf(p);
      const shape = (def.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      const fields = [...new Set([...Object.keys(shape), ...Object.keys(example)])];
      tally.endpoints += 1;
      tally.fields += fields.length;
      const token = await world.tokenFor(def.access);
      const invalid: { body: Record<string, unknown>; name: string }[] = [];
      const valid: { body: Record<string, unknown>; name: string }[] = [];
      for (const field of fields) {
        for (const value of hostileValues) {
          const body = { ...example, [field]: value };
          const name = `${field} = ${describeValue(value)}`;
          (def.input.safeParse(body).success ? valid : invalid).push({ body, name });
        }
      }
      // The refused ones first, between two snapshots: together they must change no row.
      const before = await snapshotTables(world.server, bookkeeping);
      for (const { body, name } of invalid) {
        const runs = world.server.handlerRuns.get(p) ?? 0;
        const answer = await world.server.call(p, body, token);
        expectClean(answer);
        expect([answer.body.code, name]).toEqual([400, name]);
        expect(answer.body.message, name).toMatch(/[\u4e00-\u9fa5]/);
        expect(world.server.handlerRuns.get(p) ?? 0, `${name} reached the handler`).toBe(runs);
        tally.calls += 1;
        tally.refused += 1;
      }
      expect(await snapshotTables(world.server, bookkeeping)).toBe(before);
      for (const { body, name } of valid) {
        const runs = world.server.handlerRuns.get(p) ?? 0;
        const answer = await world.server.call(
          p,
          body,
          def.access === 'public' ? '' : await world.tokenFor(def.access),
        );
        expectClean(answer);
        expect(world.server.handlerRuns.get(p) ?? 0, `${name} never reached the handler`).toBe(runs + 1);
        tally.calls += 1;
        tally.reached += 1;
      }
    });
  }
});

describe('bodies that are not an endpoint input', () => {
  for (const p of paths) {
    const def = defOf(p);
    it(`${p}: non-object, malformed and polluted JSON never reach the handler`, async () => {
      const token = await world.tokenFor(def.access);
      const before = await snapshotTables(world.server, bookkeeping);
      const runs = world.server.handlerRuns.get(p) ?? 0;
      for (const body of [[], 'text', 42]) {
        const answer = await world.server.call(p, body, token);
        expectClean(answer);
        expect(answer.body.code).toBe(400);
      }
      for (const raw of ['{"a":', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}']) {
        const answer = await world.server.raw(p, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token },
          body: raw,
        });
        expectClean(answer);
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe(400);
      }
      const wrongType = await world.server.raw(p, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', token },
        body: 'x',
      });
      expectClean(wrongType);
      expect(wrongType.body.code).toBe(415);
      expect(world.server.handlerRuns.get(p) ?? 0).toBe(runs);
      expect(await snapshotTables(world.server, bookkeeping)).toBe(before);
    });

    if (def.upload) {
      const { field, kind } = def.upload;
      it(`${p}: uploads that are not what they claim change no row`, async () => {
        const cases: [string, Uint8Array, number][] = [
          [field, new TextEncoder().encode('#!/bin/sh\nrm -rf /'), 415],
          [field, new Uint8Array(0), 400],
          [`${field}x`, sampleUpload(kind), 400],
        ];
        for (const [name, bytes, code] of cases) {
          const token = await world.tokenFor(def.access);
          const before = await snapshotTables(world.server);
          const answer = await world.server.upload(p, name, bytes, 'x.png', token);
          expectClean(answer);
          expect(answer.body.code).toBe(code);
          expect(await snapshotTables(world.server)).toBe(before);
        }
      });

      it(`${p}: malformed multipart bodies answer 400 in Chinese, change no row and log no error`, async () => {
        const token = await world.tokenFor(def.access);
        const before = await snapshotTables(world.server);
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
        expect(await snapshotTables(world.server)).toBe(before);
      });
    }
  }
});

// Last in the file: every call above was a client's doing, valid or hostile; none is the server's fault.
describe('the log after the whole sweep', () => {
  it('holds no error-level line: client mistakes are logged at most as warnings', () => {
    const errors = world.server.logs.filter((line) => /"level":(50|60)/.test(line));
    expect(errors.map((line) => line.slice(0, 300))).toEqual([]);
  });
});

/**
 * Multipart bodies a broken or hostile client sends, each around an otherwise acceptable file of
 * the endpoint's kind: none is a whole, valid form with the file under its field.
 */
function malformedMultipart(field: string, kind: string): { name: string; type: string; body: Buffer }[] {
  const form = 'multipart/form-data; boundary=';
  const bytes = Buffer.from(sampleUpload(kind));
  const head = (b: string, extra = '') =>
    `--${b}\r\n${extra}Content-Disposition: form-data; name="${field}"; filename="x.png"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  const part = (b: string, extra = '') => Buffer.concat([Buffer.from(head(b, extra)), bytes]);
  const long = 'b'.repeat(300);
  return [
    { name: '--x only', type: `${form}x`, body: Buffer.from('--x\r\n') },
    { name: 'empty boundary', type: form, body: Buffer.concat([part(''), Buffer.from('\r\n----\r\n')]) },
    { name: 'no boundary parameter', type: 'multipart/form-data', body: Buffer.from('--x\r\n') },
    { name: 'quoted empty boundary', type: `${form}""`, body: Buffer.from('--\r\n') },
    {
      name: 'boundary of 300 characters',
      type: `${form}${long}`,
      body: Buffer.concat([part(long), Buffer.from(`\r\n--${long}--\r\n`)]),
    },
    { name: 'truncated part', type: `${form}x`, body: part('x').subarray(0, head('x').length + 8) },
    { name: 'missing closing boundary', type: `${form}x`, body: Buffer.concat([part('x'), Buffer.from('\r\n')]) },
    {
      name: 'part headers never end',
      type: `${form}x`,
      body: Buffer.from(`--x\r\nContent-Disposition: form-data; name="${field}"`),
    },
    { name: 'boundary in header, none in body', type: `${form}x`, body: bytes },
    { name: 'empty body', type: `${form}x`, body: Buffer.alloc(0) },
    {
      name: 'huge header line',
      type: `${form}x`,
      body: Buffer.concat([part('x', `X-Pad: ${'a'.repeat(200_000)}\r\n`), Buffer.from('\r\n--x--\r\n')]),
    },
    {
      name: 'part without name',
      type: `${form}x`,
      body: Buffer.concat([
        Buffer.from('--x\r\nContent-Disposition: form-data; filename="x.png"\r\n\r\n'),
        bytes,
        Buffer.from('\r\n--x--\r\n'),
      ]),
    },
  ];
}

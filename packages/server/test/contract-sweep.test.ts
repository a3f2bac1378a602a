/**
 * Generated from the contract's endpoint table, so every new endpoint is covered without
 * anyone remembering: an access matrix, and a bad-input sweep (DESIGN.md "Tests").
 */
import { type ApiPath, endpoints } from '@appdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSession } from '../src/core/sessions';
import { type Answer, snapshotTables, startServer, type TestServer, tinyPng } from './harness';

let server: TestServer;
let adminId: number;
let userId: number;
let blockedToken: string;

beforeAll(async () => {
  server = await startServer();
  await server.initAdmin();
  adminId = (await server.app.services.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
  userId = (await server.addUser()).id;
  const blocked = await server.addUser();
  blockedToken = await newToken(blocked.id);
  await server.app.services.db.updateTable('users').set({ status: 'blocked' }).where('id', '=', blocked.id).execute();
});
afterAll(async () => {
  await server.close();
});

const newToken = (id: number) => createSession(server.app.services.db, id, { ip: null, userAgent: null });

async function expiredToken(): Promise<string> {
  const token = await newToken(adminId);
  await server.app.services.db
    .updateTable('sessions')
    .set({ expires_at: Date.now() - 1 })
    .where('user_id', '=', adminId)
    .where('expires_at', '>', Date.now() + 60_000)
    .where('last_used_at', '>=', Date.now() - 5_000)
    .execute();
  return token;
}

const paths = Object.keys(endpoints) as ApiPath[];
const authCodes = [401, 402, 403];

type Persona = 'anonymous' | 'junk token' | 'expired token' | 'blocked user' | 'user' | 'admin';
const personas: Persona[] = ['anonymous', 'junk token', 'expired token', 'blocked user', 'user', 'admin'];

async function tokenFor(persona: Persona): Promise<string> {
  switch (persona) {
    case 'anonymous':
      return '';
    case 'junk token':
      return 'junk-token-that-was-never-issued';
    case 'expired token':
      return expiredToken();
    case 'blocked user':
      return blockedToken;
    case 'user':
      return newToken(userId);
    case 'admin':
      return newToken(adminId);
  }
}

function expectedCode(access: 'public' | 'user' | 'admin', persona: Persona): number | 'not-auth' {
  if (access === 'public') return 'not-auth';
  if (persona === 'anonymous' || persona === 'junk token') return 401;
  if (persona === 'expired token') return 402;
  if (persona === 'blocked user') return 403;
  if (access === 'admin' && persona === 'user') return 403;
  return 'not-auth';
}

/** No stack trace, SQL or file path ever reaches a client. */
function expectClean(answer: Answer) {
  expect(answer.status).toBeLessThan(500);
  expect(answer.body.code).not.toBe(500);
  expect(answer.text).not.toMatch(
    /\bat .+:\d+:\d+|node_modules|\/work\/|\/tmp\/|select .* from|sqlite|postgres|Error:/i,
  );
}

describe('access matrix', () => {
  for (const path of paths) {
    const def = endpoints[path];
    for (const persona of personas) {
      const expected = expectedCode(def.access, persona);
      it(`${path} as ${persona} -> ${expected}`, async () => {
        const answer = await server.call(path, {}, await tokenFor(persona));
        expectClean(answer);
        expect(answer.status).toBe(200);
        if (expected === 'not-auth') expect(authCodes).not.toContain(answer.body.code);
        else expect(answer.body.code).toBe(expected);
      });
    }
  }
});

type Json = Record<string, unknown>;
interface Case {
  name: string;
  body: unknown;
}

const hostile = [
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  'a\u0000b',
  '１３８００１３８０００',
  '😀'.repeat(20),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, on purpose
  '${jndi:ldap://x}',
];

/** Invalid variants of an endpoint's input, derived from its JSON schema. */
function invalidCases(path: ApiPath): Case[] {
  const schema = z.toJSONSchema(endpoints[path].input, { io: 'input', unrepresentable: 'any' }) as Json;
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  const cases: Case[] = [
    { name: 'array body', body: [] },
    { name: 'string body', body: 'text' },
    { name: 'number body', body: 42 },
  ];
  for (const [field, prop] of Object.entries(properties)) {
    const nullable = Array.isArray(prop.anyOf) && (prop.anyOf as Json[]).some((p) => p.type === 'null');
    const type = prop.type as string | undefined;
    const wrong: unknown[] =
      type === 'string'
        ? [123, true, {}, ['x']]
        : type === 'integer' || type === 'number'
          ? ['1', true, {}, [1], ...(type === 'integer' ? [1.5] : []), 1e20, -1e20]
          : type === 'boolean'
            ? ['true', 1]
            : [];
    if (!nullable) wrong.push(null);
    for (const value of wrong) cases.push({ name: `${field} = ${JSON.stringify(value)}`, body: { [field]: value } });
    if (required.has(field)) cases.push({ name: `${field} missing`, body: {} });
    if (type === 'string' && typeof prop.maxLength === 'number') {
      cases.push({ name: `${field} too long`, body: { [field]: 'x'.repeat(prop.maxLength + 1) } });
    }
    if (type === 'string' && typeof prop.pattern === 'string') {
      for (const text of [...hostile, 'x'.repeat(200_000)]) {
        cases.push({ name: `${field} = hostile ${JSON.stringify(text.slice(0, 20))}`, body: { [field]: text } });
      }
    }
  }
  if (Object.keys(properties).length === 0) return cases;
  return cases;
}

/** Valid-but-hostile text in free-text fields: may be stored, must never break anything. */
function hostileTextCases(path: ApiPath): Case[] {
  const schema = z.toJSONSchema(endpoints[path].input, { io: 'input', unrepresentable: 'any' }) as Json;
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const cases: Case[] = [];
  for (const [field, prop] of Object.entries(properties)) {
    if (prop.type === 'string' && prop.pattern === undefined) {
      for (const text of hostile)
        cases.push({ name: `${field} = ${JSON.stringify(text.slice(0, 20))}`, body: { [field]: text } });
    }
  }
  return cases;
}

describe('bad-input sweep', () => {
  it('covers every endpoint in the table', () => {
    for (const path of paths) expect(invalidCases(path).length).toBeGreaterThanOrEqual(3);
  });

  for (const path of paths) {
    const def = endpoints[path];
    it(`${path}: invalid input answers 400 and changes no row`, async () => {
      for (const { name, body } of invalidCases(path)) {
        const token = await newToken(adminId);
        const before = await snapshotTables(server);
        const answer = await server.call(path, body, token);
        expectClean(answer);
        expect([answer.body.code, name]).toEqual([400, name]);
        expect(answer.body.message).toMatch(/[\u4e00-\u9fa5]/);
        expect(await snapshotTables(server), name).toBe(before);
      }
    });

    it(`${path}: malformed and polluted JSON never reach the handler`, async () => {
      const token = await newToken(adminId);
      const before = await snapshotTables(server);
      for (const raw of ['{"a":', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}']) {
        const answer = await server.raw(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token },
          body: raw,
        });
        expectClean(answer);
        expect(answer.status).toBe(400);
        expect(answer.body.code).toBe(400);
      }
      const wrongType = await server.raw(path, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', token },
        body: 'x',
      });
      expectClean(wrongType);
      expect(wrongType.body.code).toBe(415);
      expect(await snapshotTables(server)).toBe(before);
    });

    if ('upload' in def && def.upload) {
      const field = def.upload.field;
      it(`${path}: uploads that are not what they claim change no row`, async () => {
        const cases: [string, Uint8Array, number][] = [
          [field, new TextEncoder().encode('#!/bin/sh\nrm -rf /'), 415],
          [field, new Uint8Array(0), 400],
          [`${field}x`, tinyPng, 400],
        ];
        for (const [name, bytes, code] of cases) {
          const token = await newToken(adminId);
          const before = await snapshotTables(server);
          const answer = await server.upload(path, name, bytes, 'x.png', token);
          expectClean(answer);
          expect(answer.body.code).toBe(code);
          expect(await snapshotTables(server)).toBe(before);
        }
      });
    }

    const valid = hostileTextCases(path);
    if (valid.length > 0) {
      it(`${path}: hostile free text never causes a fault`, async () => {
        for (const { body } of valid) {
          expectClean(await server.call(path, body, await newToken(adminId)));
        }
      });
    }
  }
});

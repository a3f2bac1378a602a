/**
 * Who may call what, generated from the contract's endpoint table: every endpoint against six
 * personas, and the access levels kept in a committed snapshot per feature folder, so a change
 * to who may call what shows in review (update with `npx vitest run -u`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/core/sessions';
import { expectClean } from './clean';
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

type Persona = 'anonymous' | 'junk token' | 'expired token' | 'blocked user' | 'user' | 'admin';
const personas: Persona[] = ['anonymous', 'junk token', 'expired token', 'blocked user', 'user', 'admin'];

async function tokenFor(persona: Persona): Promise<string> {
  switch (persona) {
    case 'anonymous':
      return '';
    case 'junk token':
      return 'junk-token-that-was-never-issued';
    case 'expired token': {
      const token = await world.tokenOf(world.adminId);
      await world.server.app.services.db
        .updateTable('sessions')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', hashToken(token))
        .execute();
      return token;
    }
    case 'blocked user':
      return world.tokenOf(world.blockedId);
    case 'user':
      return world.tokenOf(world.callerId);
    case 'admin':
      return world.tokenOf(world.adminId);
  }
}

function expectedCode(access: EndpointDef['access'], persona: Persona): number | 'not-auth' {
  if (access === 'public') return 'not-auth';
  if (persona === 'anonymous' || persona === 'junk token') return 401;
  if (persona === 'expired token') return 402;
  if (persona === 'blocked user') return 403;
  if (access === 'admin' && persona === 'user') return 403;
  return 'not-auth';
}

describe('access matrix', () => {
  for (const p of paths) {
    for (const persona of personas) {
      const expected = expectedCode(defOf(p).access, persona);
      it(`${p} as ${persona} -> ${expected}`, async () => {
        const answer = await world.server.call(p, {}, await tokenFor(persona));
        expectClean(answer);
        expect(answer.status).toBe(200);
        if (expected === 'not-auth') expect([401, 402, 403]).not.toContain(answer.body.code);
        else expect(answer.body.code).toBe(expected);
      });
    }
  }
});

describe('access snapshot', () => {
  // /api/<domain>/… belongs to the feature folder of that name.
  const domains = [...new Set(paths.map((p) => p.split('/')[2]))];
  for (const domain of domains) {
    it(`${domain}: who may call each endpoint, and what it records, is as committed`, async () => {
      const folder = path.resolve(import.meta.dirname, '../src/features', domain);
      expect(existsSync(folder), `/api/${domain}/… needs its server folder features/${domain}`).toBe(true);
      const levels = Object.fromEntries(
        paths
          .filter((p) => p.split('/')[2] === domain)
          .map((p) => [p, { access: defOf(p).access, audit: defOf(p).audit?.action ?? null }]),
      );
      await expect(`${JSON.stringify(levels, null, 2)}\n`).toMatchFileSnapshot(path.join(folder, 'access.snap.json'));
    });
  }
});

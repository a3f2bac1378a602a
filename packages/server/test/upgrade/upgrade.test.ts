import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unreconciledUsers } from '../../src/core/ledger';
import { openDatabase } from '../../src/db/index';
import { restoreBackup } from '../../src/ops/restore';
import { startServer, type TestDatabase, type TestServer, testDb, tinyPng } from '../harness';
import { alipayBody, alipayFields } from '../payment-signers';
import { chainFrom } from '../storekit-chain';
import { assertAdminsBecameSuper } from './operators-upgraded';
import { differences, FIXTURES, type FixtureEnv } from './upgrade-common';

/*
 * Issue 29, done-when 5: a site made by the previous release (make-fixture.ts: its own server,
 * migrations and backup command) upgrades to this one with its environment unchanged, and every
 * app call answers as it did. Issue 30, done-when 7: its administrators are 超级管理员 and nothing
 * else changed (operators-upgraded.ts). Runs on the database of the project (api-sqlite, api-postgres).
 */
const site = JSON.parse(readFileSync(path.join(FIXTURES, 'site.json'), 'utf8')) as FixtureEnv;
const recorded = site.sites[testDb];
const env = { ...site.env, APPLE_ROOT_CERTIFICATES: path.join(FIXTURES, site.env.APPLE_ROOT_CERTIFICATES) };
const before: Record<string, string | undefined> = {};

/** A data folder (and on PostgreSQL a database of its own, as a deployment has) for one upgraded site. */
interface Site {
  dataDir: string;
  databaseUrl?: string;
  remove(): Promise<void>;
}

const adminUrl = () => process.env.TEST_DATABASE_URL as string;
async function adminQuery(text: string, url = adminUrl()) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

async function emptySite(): Promise<Site> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-upgrade-'));
  const removeDir = async () => rmSync(dataDir, { recursive: true, force: true });
  if (testDb === 'sqlite') return { dataDir, remove: removeDir };
  const name = `appdesk_upgrade_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.href,
    remove: async () => {
      await adminQuery(`drop database if exists ${name} with (force)`);
      await removeDir();
    },
  };
}

/** The previous release's data folder, and on PostgreSQL its database loaded from the plain-SQL dump. */
async function copyOfOldSite(): Promise<Site> {
  const target = await emptySite();
  execFileSync('tar', ['-xzf', path.join(FIXTURES, `${testDb}-data.tar.gz`), '-C', target.dataDir]);
  if (target.databaseUrl) {
    const dump = gunzipSync(readFileSync(path.join(FIXTURES, 'postgres-dump.sql.gz'))).toString('utf8');
    // psql's meta-commands (\restrict) are not SQL the server takes; the rest runs as one script.
    const script = dump
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    await adminQuery(script, target.databaseUrl);
  }
  return target;
}

/** An empty site with the previous release's backup archive restored by this release's restore. */
async function restoredOldBackup(): Promise<Site> {
  const target = await emptySite();
  const archive = path.join(FIXTURES, `${testDb}-backup.tar.gz`);
  const result = await restoreBackup(archive, { dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  expect(result.mismatchedRows).toEqual([]);
  return target;
}

/**
 * Sessions end 30 days after sign-in: move the fixture's forward by its age, as a deployment
 * upgraded in place has live sessions. Done on the old tables, before this release touches them.
 */
async function keepSessionsAlive(target: Site): Promise<void> {
  const by = Date.now() - site.madeAt;
  await onOldSite(
    target,
    `update sessions set created_at = created_at + ${by}, last_used_at = last_used_at + ${by},
      expires_at = expires_at + ${by}`,
  );
}

/** One statement on the site's database before this release opens it: the rows it reads. */
async function onOldSite<T>(target: Site, text: string): Promise<T[]> {
  if (target.databaseUrl) return (await adminQuery(text, target.databaseUrl)).rows as T[];
  const db = new SQLite(path.join(target.dataDir, 'appdesk.sqlite'));
  try {
    const statement = db.prepare(text);
    if (!statement.reader) statement.run();
    return statement.reader ? (statement.all() as T[]) : [];
  } finally {
    db.close();
  }
}

/** The old site's administrators (users.is_admin), before this release migrates it. */
const adminsOf = async (target: Site) =>
  (await onOldSite<{ id: number }>(target, 'select id from users where is_admin = 1 order by id')).map((r) => r.id);

/** This release's server on that site, started as an operator would: same environment, same folder or database. */
function startOn(target: Site): Promise<TestServer> {
  const existing: TestDatabase = {
    // startServer opens its own connection through reopen() and never drops an existing database.
    handle: undefined as never,
    reopen: () => openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir }),
    drop: async () => {},
  };
  return startServer({ dataDir: target.dataDir, databaseUrl: target.databaseUrl }, existing);
}

const migrationsOf = async (server: TestServer) =>
  (
    await sql<{ name: string }>`select name from kysely_migration order by name`.execute(server.app.services.db)
  ).rows.map((r) => r.name);

let reference: string[];
beforeAll(async () => {
  for (const [name, value] of Object.entries(env)) {
    before[name] = process.env[name];
    process.env[name] = value;
  }
  // What this release's migrations are: those of a site it made itself.
  const fresh = await startServer();
  reference = await migrationsOf(fresh);
  await fresh.close();
});
afterAll(() => {
  for (const [name, value] of Object.entries(before)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** Every check of an upgraded site: migrations, the recorded answers, old tokens, files, and new payments. */
async function assertAnswersAsBefore(server: TestServer): Promise<void> {
  expect(await migrationsOf(server)).toEqual(reference);

  const changed: string[] = [];
  for (const call of recorded.calls) {
    const answer = await server.call(call.path, call.body, call.as ? recorded.tokens[call.as] : '');
    for (const difference of differences(call.answer, answer.body, call.volatile)) {
      changed.push(`${call.path}${call.as ? ` (${call.as})` : ''} ${difference}`);
    }
  }
  expect(changed).toEqual([]);

  // The tokens the previous release handed out still sign the app user and the operator in.
  for (const as of ['vip', 'rich', 'admin'] as const) {
    const info = await server.call('/api/users/fetch/info', {}, recorded.tokens[as]);
    expect([as, info.body.code]).toEqual([as, 200]);
  }

  // A file the previous release stored is served from the same address.
  const claims = recorded.calls.find((c) => c.path === '/api/reviewreward/fetch/mine')?.answer.data as {
    list: { screenshot: string }[];
  };
  const file = await fetch(server.url + claims.list[0].screenshot);
  expect(file.status).toBe(200);
  expect(new Uint8Array(await file.arrayBuffer())).toEqual(tinyPng);

  // The unchanged environment still verifies payments: a new order paid by Alipay, a new App Store purchase.
  const made = await server.call('/api/order/make', { planId: 2, payMethod: 'alipay' }, recorded.tokens.vip);
  const orderNo = (made.body.data as { order: { orderNo: string } }).order.orderNo;
  const notified = await fetch(`${server.url}/api/payment/alipay/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: alipayBody(alipayFields(site.keys.alipay, orderNo, '18.00'), site.keys.alipay.alipayPrivateKey),
  });
  expect(await notified.text()).toBe('success');
  const order = await server.call('/api/order/fetch/mine', { orderNo }, recorded.tokens.vip);
  expect((order.body.data as { order: { status: string } }).order.status).toBe('paid');

  const now = Date.now();
  const purchase = await server.call(
    '/api/iaprecord/apple',
    {
      app: 'tailor',
      signedTransaction: chainFrom(site.keys.storekit).sign({
        transactionId: `3${now}`,
        originalTransactionId: `3${now}`,
        bundleId: site.env.APPLE_BUNDLE_ID,
        appAppleId: Number(site.env.APPLE_APP_APPLE_ID),
        productId: 'com.appdesk.tailor.coins.100',
        purchaseDate: now,
        signedDate: now,
        environment: 'Sandbox',
        type: 'Consumable',
        inAppOwnershipType: 'PURCHASED',
      }),
    },
    recorded.tokens.rich,
  );
  expect([purchase.body.code, (purchase.body.data as { record?: { status: string } })?.record?.status]).toEqual([
    200,
    'granted',
  ]);
  // Every coin balance still equals its ledger, old rows and new.
  expect(await unreconciledUsers(server.app.services.db)).toEqual([]);
}

describe(`upgrade from release ${site.release} (${testDb})`, () => {
  it('migrates a copy of the previous release’s site, and every app call answers as before', async () => {
    const target = await copyOfOldSite();
    try {
      await keepSessionsAlive(target);
      const admins = await adminsOf(target);
      const server = await startOn(target);
      try {
        await assertAnswersAsBefore(server);
        await assertAdminsBecameSuper(server, admins, recorded.tokens.admin);
      } finally {
        await server.close();
      }
    } finally {
      await target.remove();
    }
  });

  it('restores a backup the previous release made, and every app call answers as before', async () => {
    const target = await restoredOldBackup();
    try {
      await keepSessionsAlive(target);
      const admins = await adminsOf(target);
      const server = await startOn(target);
      try {
        await assertAnswersAsBefore(server);
        await assertAdminsBecameSuper(server, admins, recorded.tokens.admin);
      } finally {
        await server.close();
      }
    } finally {
      await target.remove();
    }
  });
});

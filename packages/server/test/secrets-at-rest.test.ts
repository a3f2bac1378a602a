/**
 * No table, and so no backup, holds a live token or any other secret in plain text (issue 26,
 * done-when 7). The calls that hand out a secret are run (sign-up, a resent sign-up, sign-in,
 * password change, an operator's password reset, generated accounts, an email link); then every
 * column of every table and a backup archive made by `npm run backup`'s code are searched for
 * each secret the run was given or sent. The apps' store and payment secrets set in the console
 * (issue 29, done-when 4) are searched for in the database file, a PostgreSQL dump, a backup
 * archive and every answer of 应用管理.
 */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretKeysFromEnv } from '../src/core/secret-box';
import { registerSearchFunctions } from '../src/db/grams.mjs';
import { migrateToLatest } from '../src/db/index';
import { migrations } from '../src/db/migrations/index';
import { makeBackup } from '../src/ops/backup';
import { runProgram } from '../src/ops/backup-common';
import {
  type Answer,
  digest,
  nextPhone,
  openTestDatabase,
  startServer,
  type TestServer,
  tableNames,
  testDb,
} from './harness';

let smtp: SMTPServer;
const mails: string[] = [];
let server: TestServer;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  server = await startServer({
    smtpUrl: `smtp://127.0.0.1:${port}`,
    publicUrl: 'https://appdesk.example.com',
    secretKeys: secretKeysFromEnv({ APPDESK_SECRETS_KEY: randomBytes(32).toString('base64') }),
  });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The site's first administrator, set up by whichever test needs it first. */
let adminSession: ReturnType<TestServer['initAdmin']> | undefined;
const signInAdmin = () => {
  adminSession ??= server.initAdmin();
  return adminSession;
};

const SECRET_NAME = /token|secret|password/i;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Every string an answer holds under a secret-looking name (a token, a password), at any depth. */
function secretsIn(value: unknown, named = false): string[] {
  if (typeof value === 'string') return named && value.length >= 8 ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((v) => secretsIn(v, named));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => secretsIn(v, named || SECRET_NAME.test(k)));
  }
  return [];
}

/** A row's values as text: blobs (SQLite) and bytea (PostgreSQL) as their bytes. */
const rowText = (row: Record<string, unknown>) =>
  Object.values(row)
    .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : typeof v === 'string' ? v : JSON.stringify(v)))
    .join('\u0000');

async function databaseText(): Promise<string> {
  const parts: string[] = [];
  for (const table of await tableNames(server)) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
      server.app.services.db,
    );
    parts.push(...rows.map(rowText));
  }
  return parts.join('\n');
}

/** The archive unpacked: its files' bytes, and its database's rows as text (a pg_dump archive is compressed). */
async function backupText(): Promise<string> {
  const out = mkdtempSync(path.join(tmpdir(), 'appdesk-secrets-backup-'));
  try {
    const { archive } = await makeBackup(
      {
        ...server.app.services,
        dataDir: server.config.dataDir,
        databaseUrl: testDb === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
        filesOnS3: Boolean(server.config.storageUrl),
      },
      out,
    );
    const unpacked = path.join(out, 'unpacked');
    await runProgram('mkdir', ['-p', unpacked]);
    await runProgram('tar', ['-xzf', archive, '-C', unpacked]);
    const parts = readdirSync(unpacked, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(path.join(entry.parentPath, entry.name)).toString('latin1'));
    if (testDb === 'sqlite') {
      const copy = new SQLite(path.join(unpacked, 'database.sqlite'), { readonly: true });
      registerSearchFunctions(copy);
      const tables = copy.prepare(`select name from sqlite_master where type = 'table'`).all() as { name: string }[];
      for (const { name } of tables) {
        const rows = copy.prepare(`select * from "${name}"`).all() as Record<string, unknown>[];
        parts.push(...rows.map(rowText));
      }
      copy.close();
    } else {
      const script = path.join(out, 'dump.sql');
      await runProgram('pg_restore', ['-f', script, path.join(unpacked, 'database.dump')]);
      parts.push(readFileSync(script, 'utf8'));
    }
    return parts.join('\n');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The SQLite database file and its write-ahead log, byte for byte. */
function sqliteFileText(): string {
  const file = path.join(server.config.dataDir, 'appdesk.sqlite');
  return [file, `${file}-wal`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n');
}

/** A plain-SQL pg_dump of the server's schema, as an operator would take one. */
function postgresDumpText(): string {
  return execFileSync(
    'pg_dump',
    ['--dbname', process.env.TEST_DATABASE_URL as string, '--schema', server.schema as string, '--no-owner'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** An export's every cell, as text. */
async function exportText(p: string, token: string): Promise<string> {
  const answer = await fetch(server.url + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: '{}',
  });
  expect(answer.headers.get('content-type')).toContain('spreadsheetml');
  const ExcelJS = (await import('exceljs')).default;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await answer.arrayBuffer()) as ArrayBuffer);
  const cells: string[] = [];
  book.worksheets[0]?.eachRow((row) => {
    cells.push(JSON.stringify(row.values));
  });
  return cells.join('\n');
}

describe('secrets at rest', () => {
  it('no table and no backup holds a token, password or password digest the run handed out or was sent', async () => {
    const secrets = new Set<string>();
    const keep = (answer: Answer) => {
      expect([answer.body.code, answer.body.message]).toEqual([200, expect.any(String)]);
      for (const secret of secretsIn(answer.body.data)) secrets.add(secret);
      return answer.body.data as Record<string, unknown>;
    };
    const sent = async (password: string) => {
      const sentDigest = await digest(password);
      secrets.add(sentDigest);
      return sentDigest;
    };
    const s = server;
    const send = (p: string, body: unknown, token: string, key?: string) =>
      s.raw(p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', token, ...(key ? { 'Idempotency-Key': key } : {}) },
        body: JSON.stringify(body),
      });

    const admin = await signInAdmin();
    secrets.add(admin.token);
    await sent(admin.password);

    // A sign-up, resent with its key (the replay), and a sign-in.
    const phone = nextPhone();
    const signUp = { phone, password: await sent('User12345'), app: 'tailor' };
    const first = keep(await send('/api/users/register', signUp, '', 'sign-up-1'));
    const replayed = await send('/api/users/register', signUp, '', 'sign-up-1');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    keep(replayed);
    const user = keep(await s.call('/api/users/login', { phone, password: signUp.password }));
    const userId = (first.user as { id: number }).id;

    // A password change, an email link, an operator's reset and generated accounts.
    const changed = { old: signUp.password, refresh: await sent('User67890') };
    keep(await s.call('/api/users/update/password', changed, user.token as string));
    keep(await s.call('/api/users/update/info', { email: 'secret@example.com' }, user.token as string));
    // The mail is quoted-printable: soft line breaks and =XX escapes undone.
    const mail = mails
      .join('\n')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));
    const link = mail.match(/validate\?token=([A-Za-z0-9_-]+)/)?.[1];
    expect(link).toBeDefined();
    secrets.add(link as string);
    keep(await s.call('/api/users/validate/email', { token: link }));
    const reset = keep(
      await s.call('/api/users/reset/password', { id: userId, reason: '核实身份后重置' }, admin.token),
    );
    const generated = keep(await s.call('/api/users/generate', { count: 3 }, admin.token));
    // What the owners of those initial passwords send when they sign in.
    const initial = [reset.password, ...(generated.accounts as { password: string }[]).map((a) => a.password)];
    for (const password of initial) secrets.add(sha256(password as string));

    // Tokens of 3 sessions, 5 initial passwords and their digests, 3 digests sent, 1 link, at least.
    expect(secrets.size).toBeGreaterThanOrEqual(16);
    const places = { database: await databaseText(), backup: await backupText() };
    for (const [place, text] of Object.entries(places)) {
      // The search sees the data: the account's phone is there in both.
      expect(text, place).toContain(phone);
      const found = [...secrets].filter((secret) => text.includes(secret));
      expect(found.map((f) => `${place}: ${f.slice(0, 6)}…`)).toEqual([]);
    }
  });

  it("the apps' secrets set in the console are in no database file, dump, backup or answer", async () => {
    const admin = await signInAdmin();
    const made = await server.call('/api/apps/make', { code: 'quote', name: '名言' }, admin.token);
    expect(made.body.code).toBe(200);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const secrets: string[] = [];
    for (const id of [1, (made.body.data as { app: { id: number } }).app.id]) {
      const values = {
        wechatApiV3Key: randomBytes(16).toString('hex'),
        googleServiceAccount: JSON.stringify({
          type: 'service_account',
          client_email: `play-${id}@appdesk.iam.gserviceaccount.com`,
          private_key: pem,
        }),
      };
      for (const [kind, value] of Object.entries(values)) {
        const set = await server.call('/api/apps/secret/set', { id, kind, value }, admin.token);
        expect([set.body.code, set.body.message]).toEqual([200, set.body.message]);
        expect(set.text).not.toContain(value);
      }
      // The key as sent, and a line of the private key however the JSON around it was escaped.
      secrets.push(values.wechatApiV3Key, values.googleServiceAccount, pem.split('\n')[1] as string);
    }
    // The server holds them: the quote app's WeChat key opens (its other WeChat settings are not set).
    const quote = await server.app.services.apps.get('quote');
    expect(quote && server.app.services.apps.secret(quote, 'wechatApiV3Key')).toBe(secrets[3]);

    const answers = [
      (await server.call('/api/apps/fetch/detail', { id: 1 }, admin.token)).text,
      (await server.call('/api/apps/fetch/detail', { id: 2 }, admin.token)).text,
      (await server.call('/api/apps/fetch/page', {}, admin.token)).text,
      (await server.call('/api/apps/fetch/options', {}, admin.token)).text,
      await exportText('/api/apps/export', admin.token),
    ];
    const places: Record<string, string> = {
      answers: answers.join('\n'),
      database: await databaseText(),
      file: testDb === 'sqlite' ? sqliteFileText() : postgresDumpText(),
      backup: await backupText(),
    };
    for (const [place, text] of Object.entries(places)) {
      // The search sees the data: the app's code is there in each.
      expect(text, place).toContain('quote');
      const found = secrets.filter((secret) => text.includes(secret));
      expect(found.map((f) => `${place}: ${f.slice(0, 6)}…`)).toEqual([]);
    }
  });

  it('sign-up answers stored before go with the migration, and the tokens they held', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-secrets-migration-'));
    const database = await openTestDatabase(dataDir);
    try {
      await migrateToLatest(database.handle);
      const token = 'a-live-session-token-from-before-0011';
      const row = (path: string, answer: unknown) => ({
        scope: 'public',
        key: path,
        path,
        fingerprint: 'f',
        answer: JSON.stringify(answer),
        created_at: Date.now(),
      });
      await database.handle.db
        .insertInto('idempotency_keys')
        .values([row('/api/users/register', { token, user: { id: 1 } }), row('/api/vip/redeem', { coins: 5 })])
        .execute();
      // The rows a server kept before the migration, which then runs over them.
      const forget = migrations.find((m) => m.name === '0012_forget_stored_sign_ups');
      await forget?.up(database.handle.db as never, database.handle.dialect);
      const answers = await database.handle.db.selectFrom('idempotency_keys').select(['path', 'answer']).execute();
      expect(answers.map((a) => JSON.stringify(a)).join()).not.toContain(token);
      // Answers that hold no secret are kept as they were.
      expect(answers.find((a) => a.path === '/api/vip/redeem')?.answer).toBe('{"coins":5}');
    } finally {
      await database.handle.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

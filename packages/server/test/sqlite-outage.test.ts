/**
 * SQLite outages (issue 7): the database stays locked past the busy timeout, and the disk fills
 * up. Both answer code 503 服务暂不可用，请稍后重试 (never 500), a full disk is logged as
 * 磁盘空间不足, and the server serves again without a restart once the lock is released or
 * space is freed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/index';
import { digest, testDb, tinyPng } from './harness';

const UNAVAILABLE = '服务暂不可用，请稍后重试';

interface Running {
  app: App;
  url: string;
  logs: string[];
  token: string;
  userId: number;
}

async function start(dataDir: string, busyTimeoutMs = 5000): Promise<Running> {
  const logs: string[] = [];
  const config = loadConfig({ dataDir, webDir: undefined, databaseUrl: undefined });
  const app = await buildApp(config, {
    database: openDatabase({ dataDir, busyTimeoutMs }),
    logger: {
      level: 'info',
      stream: new Writable({
        write(chunk, _e, done) {
          logs.push(String(chunk));
          done();
        },
      }),
    },
  });
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
  const password = await digest('Admin12345');
  const post = (p: string, body: unknown) =>
    fetch(url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/api/allocation/init', { phone: '13800000000', password, title: '站', slogen: '语' });
  const login = (await (await post('/api/users/login', { phone: '13800000000', password })).json()) as {
    data: { token: string; user: { id: number } };
  };
  return { app, url, logs, token: login.data.token, userId: login.data.user.id };
}

async function call(r: Running, p: string, body: unknown) {
  const response = await fetch(r.url + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', token: r.token },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { code: number; message: string } };
}

async function uploadAvatar(r: Running) {
  const form = new FormData();
  form.append('avatar', new Blob([tinyPng as Uint8Array<ArrayBuffer>]), 'a.png');
  const response = await fetch(`${r.url}/api/users/update/avatar`, {
    method: 'POST',
    headers: { token: r.token },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { code: number; message: string } };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(testDb === 'sqlite')('SQLite outages', () => {
  it('a lock held past the busy timeout answers 503, and the next call after it is released succeeds', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-locked-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const r = await start(dataDir, 300);
    cleanups.push(() => r.app.close());

    const holder = new SQLite(path.join(dataDir, 'appdesk.sqlite'));
    holder.exec('begin immediate');
    const locked = await call(r, '/api/users/update/coins', { id: r.userId, delta: 5, reason: '锁' });
    expect(locked).toEqual({ status: 200, body: { code: 503, message: UNAVAILABLE, data: null } });
    holder.exec('rollback');
    holder.close();

    const after = await call(r, '/api/users/update/coins', { id: r.userId, delta: 5, reason: '解锁' });
    expect(after.body.code).toBe(200);
    const rows = await r.app.services.db.selectFrom('coin_records').select('note').execute();
    expect(rows.map((x) => x.note)).toEqual(['解锁']);
    expect(r.logs.join('\n')).toContain('数据库暂不可用');
  });

  const canMount = (() => {
    if (process.getuid?.() !== 0) return false;
    const probe = mkdtempSync(path.join(tmpdir(), 'appdesk-mount-probe-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' });
      execFileSync('umount', [probe], { stdio: 'pipe' });
      return true;
    } catch {
      return false;
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  })();
  if (!canMount) console.warn('sqlite-outage.test.ts: cannot mount a small tmpfs (needs root): full-disk test skipped');

  it.runIf(canMount)(
    'a full disk answers 503 and logs 磁盘空间不足; freeing space restores service without a restart',
    async () => {
      const mountPoint = mkdtempSync(path.join(tmpdir(), 'appdesk-fulldisk-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=12m', 'tmpfs', mountPoint]);
      cleanups.push(() => {
        execFileSync('umount', ['-l', mountPoint]);
        rmSync(mountPoint, { recursive: true, force: true });
      });
      const dataDir = path.join(mountPoint, 'data');
      mkdirSync(dataDir);
      const r = await start(dataDir);
      cleanups.push(() => r.app.close());

      // Fill every remaining byte.
      const filler = path.join(mountPoint, 'filler');
      const chunk = Buffer.alloc(64 * 1024, 1);
      let size = 0;
      for (;;) {
        try {
          writeFileSync(filler, chunk, { flag: 'a' });
          size += chunk.length;
        } catch {
          break;
        }
      }
      for (let n = 1024; n >= 1; n = Math.floor(n / 2)) {
        try {
          for (;;) writeFileSync(filler, Buffer.alloc(n, 1), { flag: 'a' });
        } catch {
          // smaller pieces next
        }
      }
      expect(size).toBeGreaterThan(0);

      const upload = await uploadAvatar(r);
      expect(upload).toEqual({ status: 200, body: { code: 503, message: UNAVAILABLE, data: null } });

      // Writes grow the WAL until it cannot: then 503, never 500.
      let refused: { status: number; body: { code: number; message: string } } | undefined;
      for (let i = 0; i < 400 && !refused; i++) {
        const answer = await call(r, '/api/users/update/coins', {
          id: r.userId,
          delta: 1,
          reason: `满盘 ${i} ${'字'.repeat(180)}`,
        });
        expect([200, 503]).toContain(answer.body.code);
        if (answer.body.code === 503) refused = answer;
      }
      expect(refused).toEqual({ status: 200, body: { code: 503, message: UNAVAILABLE, data: null } });
      expect(r.logs.join('\n')).toContain('磁盘空间不足');
      const ready = await fetch(`${r.url}/readyz`);
      expect(ready.status).toBe(503);

      rmSync(filler);
      const again = await call(r, '/api/users/update/coins', { id: r.userId, delta: 1, reason: '空间已释放' });
      expect(again.body.code).toBe(200);
      expect((await uploadAvatar(r)).body.code).toBe(200);
      expect((await fetch(`${r.url}/readyz`)).status).toBe(200);
      const user = await r.app.services.db
        .selectFrom('users')
        .select('coins')
        .where('id', '=', r.userId)
        .executeTakeFirstOrThrow();
      const ledger = await r.app.services.db.selectFrom('coin_records').select('delta').execute();
      expect(Number(user.coins)).toBe(ledger.length);
    },
  );
});

/**
 * Disk filling (issue 7, done-when 5): replaced files are deleted, uploads have hourly quotas per
 * account and in total, sign-ups and verification mails are throttled with a retry time, images
 * over the pixel limit are refused, and a signed-out attacker's hour of trying stays within the
 * stated quotas.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { Quotas } from '../src/config';
import { forgetExpired } from '../src/core/throttle';
import { folderBytes } from './disk';
import {
  type Answer,
  digest,
  nextPhone,
  singleInstanceOnly,
  startServer,
  type TestServer,
  testDb,
  tinyPng,
  unlimitedQuotas,
} from './harness';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(quotas: Partial<Quotas> = {}) {
  const base = await startServer({ quotas: { ...unlimitedQuotas, ...quotas } });
  servers.push(base);
  return base;
}

const data = <T>(answer: Answer) => answer.body.data as T;

async function register(server: TestServer, phone = nextPhone()) {
  const answer = await server.call('/api/users/register', {
    phone,
    password: await digest('User12345'),
    app: 'tailor',
  });
  return answer;
}

async function registered(server: TestServer) {
  const answer = await register(server);
  expect(answer.body.code).toBe(200);
  return data<{ token: string; user: { id: number } }>(answer);
}

/** A PNG of random pixels (does not compress), about width × height × 3 bytes. */
async function noisePng(width: number, height: number): Promise<Uint8Array> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** A valid 1-bit PNG of width × height that compresses to almost nothing: a decompression bomb. */
function bombPng(width: number, height: number): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), body]);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(typed));
    return Buffer.concat([head, typed, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((Math.ceil(width / 8) + 1) * height); // filter byte 0 + zero pixels per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const fileOf = (server: TestServer, url: string) => path.join(server.config.dataDir, url);

describe('replaced files', () => {
  it.runIf(
    singleInstanceOnly(
      'looks at the local files/ folder; behind nginx files are in S3 (the storage contract covers S3)',
    ),
  )('a replaced avatar is deleted with its row; one still shown elsewhere is kept', async () => {
    const server = await serve();
    const { token, user } = await registered(server);
    const first = data<{ user: { avatar: string } }>(
      await server.upload('/api/users/update/avatar', 'avatar', tinyPng, 'a.png', token),
    ).user.avatar;
    expect(existsSync(fileOf(server, first))).toBe(true);
    const second = data<{ user: { avatar: string } }>(
      await server.upload('/api/users/update/avatar', 'avatar', tinyPng, 'b.png', token),
    ).user.avatar;
    expect(existsSync(fileOf(server, first))).toBe(false);
    expect(existsSync(fileOf(server, second))).toBe(true);
    const db = server.app.services.db;
    const keys = (await db.selectFrom('files').select('key').where('uploader_id', '=', user.id).execute()).map(
      (r) => `/files/${r.key}`,
    );
    expect(keys).toEqual([second]);

    // The site logo shows the second picture too: replacing the avatar keeps it.
    await db.updateTable('allocation').set({ logo: second }).execute();
    await server.upload('/api/users/update/avatar', 'avatar', tinyPng, 'c.png', token);
    expect(existsSync(fileOf(server, second))).toBe(true);
  });

  it.runIf(
    singleInstanceOnly(
      'looks at the local files/ folder; behind nginx files are in S3 (the storage contract covers S3)',
    ),
  )('a replaced site logo is deleted', async () => {
    const server = await serve();
    const { token } = await server.initAdmin();
    const logoOf = (a: Answer) => data<{ allocation: { logo: string } }>(a).allocation.logo;
    const first = logoOf(await server.upload('/api/allocation/update/logo', 'logo', tinyPng, 'l.png', token));
    const second = logoOf(await server.upload('/api/allocation/update/logo', 'logo', tinyPng, 'm.png', token));
    expect(existsSync(fileOf(server, first))).toBe(false);
    expect(existsSync(fileOf(server, second))).toBe(true);
  });
});

describe('image pixel limit', () => {
  it('a 20,000 × 20,000 PNG (a few KB) is refused with 413 and leaves nothing; an ordinary one passes', async () => {
    const server = await serve();
    const { token } = await registered(server);
    const bomb = bombPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(200_000);
    const before = folderBytes(path.join(server.config.dataDir, 'files'));
    const answer = await server.upload('/api/users/update/avatar', 'avatar', bomb, 'bomb.png', token);
    expect(answer.body.code).toBe(413);
    expect(answer.body.message).toContain('像素');
    expect(folderBytes(path.join(server.config.dataDir, 'files'))).toBe(before);
    expect(await server.app.services.db.selectFrom('files').select('id').execute()).toEqual([]);
    const fine = await server.upload('/api/users/update/avatar', 'avatar', await noisePng(64, 64), 'ok.png', token);
    expect(fine.body.code).toBe(200);
  });
});

describe('upload quotas', () => {
  it('per account: files per hour, then 429 saying when to retry; an administrator is not limited', async () => {
    const server = await serve({ uploadsPerUserPerHour: 3 });
    const { token } = await registered(server);
    const codes: number[] = [];
    let last: Answer | undefined;
    for (let i = 0; i < 5; i++) {
      last = await server.upload('/api/users/update/avatar', 'avatar', tinyPng, 'a.png', token);
      codes.push(last.body.code);
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    expect(last?.body.message).toMatch(/每小时最多 3 个文件.*请 (60|59) 分钟后再试/);
    const admin = await server.initAdmin();
    for (let i = 0; i < 5; i++) {
      expect(
        (await server.upload('/api/allocation/update/logo', 'logo', tinyPng, 'l.png', admin.token)).body.code,
      ).toBe(200);
    }
  });

  it('per account bytes and all accounts together, counted exactly when uploads race', async () => {
    const image = await noisePng(100, 100); // ~30 KB
    const unit = Math.ceil(image.length / 1024) * 1024; // quotas count whole KiB
    const server = await serve({ uploadBytesPerUserPerHour: 4 * unit, uploadBytesPerHour: 6 * unit });
    const a = await registered(server);
    const b = await registered(server);
    const send = (token: string) => server.upload('/api/users/update/avatar', 'avatar', image, 'n.png', token);
    const first = await Promise.all(Array.from({ length: 8 }, () => send(a.token)));
    expect(first.filter((x) => x.body.code === 200)).toHaveLength(4);
    expect(first.find((x) => x.body.code === 429)?.body.message).toContain('本小时上传量已达上限');
    const second = await Promise.all(Array.from({ length: 8 }, () => send(b.token)));
    expect(second.filter((x) => x.body.code === 200)).toHaveLength(2);
    expect(second.find((x) => x.body.code === 429)?.body.message).toContain('全站本小时的上传量已达上限');
  });
});

describe('promotion reports', () => {
  it('per address per minute: past the limit 429 with when to retry, and no row', async () => {
    const server = await startServer({
      quotas: { ...unlimitedQuotas, selfappReportsPerAddressPerMinute: 5 },
      trustProxy: 1,
    });
    servers.push(server);
    const admin = (await server.initAdmin()).token;
    const made = await server.call(
      '/api/selfapp/make',
      { name: '推广应用', packageId: 'com.example.promo', androidUrl: 'https://example.com/a.apk' },
      admin,
    );
    const id = data<{ selfapp: { id: number } }>(made).selfapp.id;
    const report = (address: string, n: number) =>
      server.raw('/api/selfapp/report', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ id, action: 'show', app: 'tailor', platform: 'android', deviceId: `device-${n}` }),
      });
    const answers: Answer[] = [];
    for (let n = 0; n < 12; n++) answers.push(await report('203.0.113.7', n));
    const accepted = answers.filter((a) => a.body.code === 200).length;
    // Counted by each process: behind nginx each of the two instances lets its own five through.
    expect(accepted).toBeGreaterThanOrEqual(5);
    expect(accepted).toBeLessThanOrEqual(5 * server.apps.length);
    expect(answers.at(-1)?.body.code).toBe(429);
    expect(answers.at(-1)?.body.message).toMatch(/^推广记录上报过于频繁，请 \d+ 秒后再试$/);
    expect((await report('203.0.113.8', 99)).body.code).toBe(200);
    const rows = await server.app.services.db.selectFrom('selfapp_records').select('id').execute();
    expect(rows.length).toBe(accepted + 1);
  });
});

describe('sign-ups and verification mails', () => {
  it('registrations per address: past the limit 429 with when to retry', async () => {
    const server = await serve({ registrationsPerAddressPerHour: 3 });
    const codes = [];
    let last: Answer | undefined;
    for (let i = 0; i < 5; i++) {
      last = await register(server);
      codes.push(last.body.code);
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    expect(last?.body.message).toMatch(/^注册过于频繁，请 \d+ 分钟后再试$/);
  });

  it('verification mails: one a minute per account, a daily number per account; refusals change nothing', async () => {
    const server = await serve({ mailIntervalMs: 60_000, mailsPerAccountPerDay: 2 });
    const { token, user } = await registered(server);
    const mail = (email: string, nickname?: string) =>
      server.call('/api/users/update/info', { email, ...(nickname ? { nickname } : {}) }, token);
    expect((await mail('a@example.com')).body.code).toBe(200);
    const soon = await mail('b@example.com', '新名字');
    expect(soon.body).toMatchObject({ code: 429 });
    expect(soon.body.message).toMatch(/^验证邮件发送过于频繁，请 \d+ 秒后再试$/);
    const db = server.app.services.db;
    const row = await db.selectFrom('users').select('nickname').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.nickname).not.toBe('新名字');
    expect(await db.selectFrom('email_tokens').select('id').execute()).toHaveLength(1);
    // A minute later (the interval's window moved back, as a clock would), the daily number decides.
    const shift = () =>
      db
        .updateTable('login_attempts')
        .set((eb) => ({ window_start: eb('window_start', '-', 61_000) }))
        .where('key', 'like', 'mail:user:%')
        .execute();
    await shift();
    expect((await mail('b@example.com')).body.code).toBe(200);
    await shift();
    const daily = await mail('c@example.com');
    expect(daily.body.message).toMatch(/^今天发送的验证邮件已达上限，请 \d+ 小时后再试$/);
  });
});

describe('counters', () => {
  it('counters whose window ended two days ago are forgotten; sign-in locks are left to their own code', async () => {
    const server = await serve({ registrationsPerAddressPerHour: 5 });
    await registered(server);
    const db = server.app.services.db;
    const old = Date.now() - 3 * 24 * 60 * 60 * 1000;
    await db
      .insertInto('login_attempts')
      .values({ key: 'phone:13800000000', failures: 3, window_start: old, locked_until: null })
      .execute();
    await db.updateTable('login_attempts').set({ window_start: old }).execute();
    await forgetExpired(db);
    // What is left is the sign-in throttle's own (core/login-throttle.ts prunes it by its own rules).
    const left = (await db.selectFrom('login_attempts').select('key').execute()).map((r) => r.key);
    expect(left).toContain('phone:13800000000');
    expect(left.filter((key) => !/^(phone|ip|pair):/.test(key))).toEqual([]);
  });
});

describe('a signed-out attacker for an hour', () => {
  it.runIf(
    singleInstanceOnly(
      'looks at the local files/ folder; behind nginx files are in S3 (the storage contract covers S3)',
    ),
  )('cannot grow the data folder past the stated quotas', async () => {
    // The stated defaults scaled down so the test runs in seconds; the bound is the same formula.
    const quotas = {
      registrationsPerAddressPerHour: 4,
      uploadsPerUserPerHour: 5,
      uploadBytesPerUserPerHour: 600 * 1024,
      uploadBytesPerHour: 1024 * 1024,
    };
    const server = await serve(quotas);
    const dir = server.config.dataDir;
    const image = await noisePng(200, 200); // ~120 KB each, incompressible
    const before = { total: folderBytes(dir), files: folderBytes(path.join(dir, 'files')) };

    // As fast as allowed: sign up until refused, then every account uploads until refused.
    const accounts: string[] = [];
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const answer = await register(server);
      if (answer.body.code !== 200) {
        expect(answer.body.code).toBe(429);
        break;
      }
      accounts.push(data<{ token: string }>(answer).token);
    }
    let uploaded = 0;
    let uploadBytes = 0;
    for (const token of accounts) {
      for (let i = 0; i < 20; i++) {
        const answer = await server.upload('/api/users/update/avatar', 'avatar', image, 'x.png', token);
        if (answer.body.code !== 200) {
          expect(answer.body.code).toBe(429);
          break;
        }
        uploaded += 1;
        uploadBytes += image.length;
      }
    }
    // The rest of the hour: every further try is refused and adds nothing.
    const afterBurst = folderBytes(path.join(dir, 'files'));
    for (let i = 0; i < 20; i++) {
      expect((await register(server)).body.code).toBe(429);
      for (const token of accounts) {
        expect((await server.upload('/api/users/update/avatar', 'avatar', image, 'x.png', token)).body.code).toBe(429);
      }
    }
    expect(folderBytes(path.join(dir, 'files'))).toBe(afterBurst);

    const after = { total: folderBytes(dir), files: folderBytes(path.join(dir, 'files')) };
    const growth = { total: after.total - before.total, files: after.files - before.files };
    console.log(
      `attacker hour (${testDb}): ${accounts.length} accounts (of ${attempts} sign-ups tried), ${uploaded} uploads ` +
        `(${uploadBytes} bytes sent); data folder grew ${growth.total} bytes, of which files ${growth.files}`,
    );
    expect(accounts.length).toBe(quotas.registrationsPerAddressPerHour);
    expect(uploadBytes).toBeLessThanOrEqual(quotas.uploadBytesPerHour);
    // Files: each account keeps one avatar (replaced ones are deleted), within the hourly total.
    expect(growth.files).toBeLessThanOrEqual(Math.min(quotas.uploadBytesPerHour, accounts.length * image.length));
    // The database: a few KB per account and upload, plus SQLite's write-ahead log (at most ~4 MB).
    const databaseAllowance = testDb === 'sqlite' ? 4.5 * 1024 * 1024 : 0;
    expect(growth.total - growth.files).toBeLessThanOrEqual(databaseAllowance);
  });
});

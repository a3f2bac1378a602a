import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../../../scripts/cluster';
import { digest, nextPhone, SEEN_WITHIN_MS, testDb, topology } from './harness';

/*
 * Two built instances behind Debian's nginx on one PostgreSQL database and one S3 store (radosgw),
 * everything through nginx (scripts/cluster.ts). Needs the build, nginx and radosgw, so it runs only
 * when asked: CLUSTER_TEST=1 (npm test sets it when TEST_DATABASE_URL is set, and builds first), in the
 * api-cluster project, or in api-postgres when that project is left out (TEST_CLUSTER=0).
 * CLUSTER_PORT picks the ports (nginx there, instances on the next ones; default 8936).
 */
const enabled =
  process.env.CLUSTER_TEST === '1' &&
  (topology === 'cluster' || (testDb === 'postgres' && process.env.TEST_CLUSTER === '0'));

interface Reply {
  code: number;
  data: unknown;
  upstream: string;
  status: number;
}

describe.runIf(enabled)('two instances behind nginx on PostgreSQL + S3', () => {
  let cluster: Cluster;
  const call = async (path: string, body: unknown = {}, token = '', headers: Record<string, string> = {}) => {
    const answer = await fetch(cluster.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token, ...headers },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as { code: number; data: unknown };
    return { ...json, upstream: answer.headers.get('x-upstream') ?? '', status: answer.status } satisfies Reply;
  };
  /** Milliseconds from now until a call answered by an instance other than `writer` satisfies `seen`. */
  const seenByOther = async (writer: string, read: () => Promise<Reply>, seen: (r: Reply) => boolean) => {
    const started = Date.now();
    while (Date.now() - started < SEEN_WITHIN_MS) {
      const r = await read();
      if (r.upstream !== writer && seen(r)) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return Number.POSITIVE_INFINITY;
  };
  let admin = '';

  beforeAll(async () => {
    cluster = await startCluster({ port: Number(process.env.CLUSTER_PORT ?? 8936), quiet: true });
    const password = await digest('Admin12345');
    const init = await call('/api/allocation/init', {
      phone: '13800000000',
      password,
      title: '集群站点',
      slogen: '两个实例',
    });
    expect(init.code).toBe(200);
    const login = await call('/api/users/login', { phone: '13800000000', password });
    admin = (login.data as { token: string }).token;
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  it('spreads calls over both instances', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add((await call('/api/allocation/fetch')).upstream);
    expect(seen).toEqual(new Set(cluster.instances.map((i) => `127.0.0.1:${i.port}`)));
  });

  it('a change through one instance is seen through the other (title, config value, blocked token)', async () => {
    const times: Record<string, number> = {};
    const title = `集群标题-${randomUUID().slice(0, 6)}`;
    const changed = await call('/api/allocation/update/title', { title }, admin);
    expect(changed.code).toBe(200);
    times.title = await seenByOther(
      changed.upstream,
      () => call('/api/allocation/fetch'),
      (r) => (r.data as { allocation: { title: string } }).allocation.title === title,
    );

    const key = `cluster.${randomUUID().slice(0, 8)}`;
    const device = { app: 'tailor', platform: 'android', channel: 'huawei', versionCode: 200, deviceId: 'cluster-1' };
    const configValue = (r: Reply) => (r.data as { values?: Record<string, unknown> }).values?.[key];
    const made = await call('/api/a11t/make', { key, value: 'before' }, admin);
    expect(made.code).toBe(200);
    // Both instances have served (and cached) the old value.
    const servedOld = new Set<string>();
    while (servedOld.size < 2) {
      const r = await call('/api/a11t/fetch', device);
      if (configValue(r) === 'before') servedOld.add(r.upstream);
    }
    const updated = await call(
      '/api/a11t/update',
      { id: (made.data as { entry: { id: number } }).entry.id, value: 'after' },
      admin,
    );
    expect(updated.code).toBe(200);
    times.config = await seenByOther(
      updated.upstream,
      () => call('/api/a11t/fetch', device),
      (r) => configValue(r) === 'after',
    );

    // A user signed up (with an Idempotency-Key, through nginx's retrying location) and signed in.
    const phone = nextPhone();
    const password = await digest('User12345');
    const registered = await call('/api/users/register', { phone, password, app: 'tailor', channel: 'huawei' }, '', {
      'Idempotency-Key': randomUUID(),
    });
    expect(registered.code).toBe(200);
    const user = registered.data as { token: string; user: { id: number } };
    const blocked = await call('/api/users/block', { id: user.user.id, reason: '测试' }, admin);
    expect(blocked.code).toBe(200);
    times.blocked = await seenByOther(
      blocked.upstream,
      () => call('/api/users/fetch/info', {}, user.token),
      (r) => r.code === 401 || r.code === 403,
    );
    // Refused through both instances from then on.
    for (let i = 0; i < 4; i++)
      expect([401, 403]).toContain((await call('/api/users/fetch/info', {}, user.token)).code);

    console.log(`cross-instance visibility through nginx (ms): ${JSON.stringify(times)}`);
    for (const ms of Object.values(times)) expect(ms).toBeLessThan(SEEN_WITHIN_MS);
  });

  it('believes only the address nginx saw, not a forwarded one a client wrote', async () => {
    const r = await call('/api/sessions/fetch/mine', {}, admin, { 'X-Forwarded-For': '203.0.113.7' });
    expect(r.code).toBe(200);
    const list = (r.data as { list: { ip: string | null }[] }).list;
    expect(list.length).toBeGreaterThan(0);
    for (const s of list) expect(s.ip).toBe('127.0.0.1');
    const login = await call('/api/users/login', { phone: '13800000000', password: await digest('Admin12345') }, '', {
      'X-Forwarded-For': '203.0.113.7',
    });
    const mine = await call('/api/sessions/fetch/mine', {}, (login.data as { token: string }).token);
    const current = (mine.data as { list: { ip: string | null; current: boolean }[] }).list.find((s) => s.current);
    expect(current?.ip).toBe('127.0.0.1');
  });

  it('uploads to S3 through one instance and serves the file through both; nginx refuses oversized bodies in the envelope', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366ff' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([png as Uint8Array<ArrayBuffer>]), 'a.png');
    const answer = await fetch(`${cluster.url}/api/finder/single`, {
      method: 'POST',
      headers: { token: admin },
      body: form,
    });
    const body = (await answer.json()) as { code: number; data: { url: string } };
    expect(body.code).toBe(200);
    const servedBy = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const file = await fetch(cluster.url + body.data.url);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
      servedBy.add(file.headers.get('x-upstream') ?? '');
    }
    expect(servedBy.size).toBe(2);

    // Over the image limit (10 MB + 1 MB framing) on an image endpoint: nginx answers, in the envelope.
    const big = new FormData();
    big.append('avatar', new Blob([new Uint8Array(12 * 1024 * 1024)]), 'big.png');
    const refused = await fetch(`${cluster.url}/api/users/update/avatar`, {
      method: 'POST',
      headers: { token: admin },
      body: big,
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { code: number }).code).toBe(413);
  });

  it('serves hashed assets from nginx, precompressed and cached for a year', async () => {
    const shell = await (await fetch(`${cluster.url}/`)).text();
    const asset = shell.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const answer = await fetch(cluster.url + asset, { headers: { 'accept-encoding': 'br' } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.get('content-encoding')).toBe('br');
    expect(answer.headers.get('x-upstream')).toBeNull();
  });

  it('kill -9 of an instance during uploads leaves no orphan object and no row without its object', async () => {
    const victim = cluster.instances[0];
    // Noise PNGs of about 1–3 MB (they do not compress), so uploads are at every stage when the kill comes.
    const images = await Promise.all(
      [400, 600, 800].map((side) =>
        sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
          .png({ compressionLevel: 0 })
          .toBuffer(),
      ),
    );
    const outcomes = { ok: 0, failed: 0 };
    let stop = false;
    const uploader = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const form = new FormData();
        form.append('file', new Blob([images[(n + i) % images.length] as Uint8Array<ArrayBuffer>]), `k${n}-${i}.png`);
        // Straight to the victim (no proxy to pass a broken upload on), and half through nginx.
        const target = n % 2 === 0 ? `http://127.0.0.1:${victim.port}` : cluster.url;
        try {
          const answer = await fetch(`${target}/api/finder/single`, {
            method: 'POST',
            headers: { token: admin },
            body: form,
          });
          const body = (await answer.json()) as { code: number };
          if (body.code === 200) outcomes.ok += 1;
          else outcomes.failed += 1;
        } catch {
          outcomes.failed += 1;
          if (n % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    const running = [0, 1, 2, 3, 4, 5].map(uploader);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    victim.process?.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop = true;
    await Promise.all(running);
    await victim.start();
    expect(outcomes.ok).toBeGreaterThan(0);

    const sweep = (...args: string[]) => {
      const result = spawnSync(
        process.execPath,
        [path.resolve(import.meta.dirname, '../dist/main.js'), 'storage-sweep', ...args],
        { env: { ...cluster.env, DATA_DIR: victim.dataDir }, encoding: 'utf8' },
      );
      return { status: result.status, out: result.stdout };
    };
    const report = sweep();
    console.log(`kill -9 during uploads: ${JSON.stringify(outcomes)}\n${report.out}`);
    // No orphan and no row pointing at a missing object; what the killed process was writing is
    // reported as interrupted uploads (pending keys), never as orphans.
    expect(report.out).toContain('发现 0 个无人引用的存储对象');
    expect(report.out).toContain('发现 0 条指向缺失对象的 files 记录');
    expect(report.out).not.toContain('业务表引用了');
    // Nothing is uploading now: interrupted uploads are removed without waiting for the grace period.
    expect(sweep('--remove', '--pending-grace-minutes=0').status).toBe(0);
    const after = sweep();
    expect(after.status).toBe(0);
    expect(after.out).toMatch(/发现 0 个无人引用[\s\S]*发现 0 条[\s\S]*发现 0 个中断的上传/);
  }, 240_000);
});

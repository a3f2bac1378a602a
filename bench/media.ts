/**
 * `node --import tsx media.ts` (from bench/, after `npm run build`): the media library's costs on
 * the built server with a fresh SQLite folder.
 * 1. The apps' image list (`/api/unsplash/fetch/list`, one category, 20 a page) on a library of
 *    10,000 images, against the bare Fastify baseline, each at concurrency 10 for 10 s.
 * 2. 20 JPEG uploads of about 5 MB each through `/api/unsplash/make`, 4 at a time: the server's
 *    peak resident memory (VmRSS sampled every 20 ms) while sharp reads them and makes thumbnails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { callOk } from './lib/api';
import { admin, sha256hex } from './lib/fixtures';
import { freePort, rssMb, start, stop, waitUntil } from './lib/processes';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'appdesk-media-bench-'));
const IMAGES = 10_000;
const categories = ['壁纸', '贴纸', '背景', '头像', '节日', '风景', '动物', '美食', '城市', '抽象'];

async function load(url: string, body: string) {
  const options = {
    url,
    method: 'POST' as const,
    body,
    headers: { 'content-type': 'application/json' },
    connections: 10,
  };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: 10 });
  return {
    rate: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors,
  };
}

/** Random pixels as a JPEG of about 5 MB (noise does not compress). */
async function fiveMegabyteJpeg(seed: number): Promise<Buffer> {
  const width = 3000;
  const height = 2100;
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < pixels.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    pixels[i] = x & 0xff;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

async function main() {
  const port = await freePort();
  const basePort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(work, 'data');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const server = start('server', process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
    env,
    cwd: work,
  });
  const baseline = start('baseline', process.execPath, [path.join(root, 'bench/baseline-server.mjs')], {
    env: { ...process.env, PORT: String(basePort) },
    cwd: work,
  });
  try {
    await waitUntil(server, async () => {
      await callOk(base, '/api/allocation/fetch');
      return true;
    });
    await callOk(base, '/api/allocation/init', {
      phone: admin.phone,
      password: sha256hex(admin.password),
      title: admin.title,
      slogen: admin.slogen,
    });
    const { token } = await callOk(base, '/api/users/login', {
      phone: admin.phone,
      password: sha256hex(admin.password),
    });

    // 1. 10,000 image rows written straight into the database (the list reads only this table).
    const db = new Database(path.join(dataDir, 'appdesk.sqlite'));
    const insert = db.prepare(`insert into images (file_id, file_key, thumb_key, name, width, height, size, mime,
      category, tags, author, source_url, sort, enabled, uploader_id, created_at, updated_at)
      values (?, ?, ?, ?, 1080, 1920, 524288, 'image/jpeg', ?, ',风景,', '', '', ?, ?, 1, ?, ?)`);
    const file = db.prepare(`insert into files (key, name, mime, size, sha256, kind, uploader_id, created_at)
      values (?, ?, 'image/jpeg', 524288, ?, 'image', 1, ?)`);
    const now = Date.now();
    db.transaction(() => {
      for (let i = 1; i <= IMAGES; i++) {
        const { lastInsertRowid } = file.run(`2026-11/seed${i}.jpg`, `图片${i}.jpg`, sha256hex(`seed${i}`), now);
        insert.run(
          Number(lastInsertRowid),
          `2026-11/seed${i}.jpg`,
          `2026-11/seed${i}.webp`,
          `图片${i}`,
          categories[i % categories.length],
          i % 100,
          i % 20 === 0 ? 0 : 1,
          now - i * 1000,
          now - i * 1000,
        );
      }
    })();
    db.close();
    const list = await load(`${base}/api/unsplash/fetch/list`, JSON.stringify({ category: '壁纸', page: 0, size: 20 }));
    const deep = await load(
      `${base}/api/unsplash/fetch/list`,
      JSON.stringify({ category: '壁纸', page: 40, size: 20, order: 'sort' }),
    );
    const reference = await load(`${base}/api/allocation/fetch`, '{}');
    const bare = await load(`http://127.0.0.1:${basePort}/api/baseline`, '{}');

    // 2. 20 uploads of about 5 MB, 4 at a time.
    const files = await Promise.all(Array.from({ length: 20 }, (_, i) => fiveMegabyteJpeg(i + 1)));
    const idle = rssMb(server.pid) ?? 0;
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid) ?? 0);
    }, 20);
    const started = Date.now();
    let next = 0;
    let failed = 0;
    const worker = async () => {
      while (next < files.length) {
        const bytes = files[next];
        next += 1;
        const form = new FormData();
        form.append('category', JSON.stringify('压测'));
        form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'image/jpeg' }), `bench${next}.jpg`);
        const answer = (await (
          await fetch(`${base}/api/unsplash/make`, { method: 'POST', headers: { token }, body: form })
        ).json()) as {
          code: number;
        };
        if (answer.code !== 200) failed += 1;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    const sizes = files.map((f) => f.length / 1024 / 1024);

    const row = (name: string, r: Awaited<ReturnType<typeof load>>) =>
      `| ${name} | ${r.rate.toLocaleString('en-US')} req/s | ${r.p50} | ${r.p99} | ${r.bad} | ${(r.rate / bare.rate).toFixed(3)} |`;
    console.log(
      `\n| scenario | rate | p50 ms | p99 ms | bad | × baseline |\n| --- | ---: | ---: | ---: | ---: | ---: |`,
    );
    console.log(row('baseline', bare));
    console.log(row('allocation/fetch (the cheapest call, for reference)', reference));
    console.log(row('unsplash/fetch/list newest, page 0 (10,000 images)', list));
    console.log(row('unsplash/fetch/list by sort, page 40', deep));
    console.log(
      `\nuploads: 20 JPEGs of ${Math.min(...sizes).toFixed(1)}–${Math.max(...sizes).toFixed(1)} MB, 4 at a time, ${seconds.toFixed(1)} s, ${failed} failed; server RSS idle ${idle} MB, peak ${peak} MB`,
    );
  } finally {
    await stop(server);
    await stop(baseline);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();

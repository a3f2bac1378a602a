import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleInstanceOnly, snapshotTables, startServer, type TestServer } from '../../../test/harness';
import { makeImage, pngBomb, pngWithHtml, svg } from '../../../test/media';
import { loadConfig } from '../../config';

let server: TestServer;
let token: string;
const LIMIT = 3 * 1024 * 1024;
beforeAll(async () => {
  server = await startServer({ limits: { ...loadConfig().limits, image: LIMIT } });
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

type Image = { id: number; url: string; thumbUrl: string; width: number; height: number; size: number; tags: string[] };
const storedFiles = () => {
  const root = path.join(server.config.dataDir, 'files');
  return existsSync(root)
    ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).length
    : 0;
};
const admin = async <T>(p: string, body: unknown) => {
  const answer = await server.call(p, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};

async function uploadImage(bytes: Uint8Array, name: string, fields: Record<string, unknown> = {}) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, JSON.stringify(value));
  form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), name);
  const res = await fetch(`${server.url}/api/unsplash/make`, { method: 'POST', headers: { token }, body: form });
  return (await res.json()) as { code: number; message: string; data?: { image: Image; duplicate: boolean } };
}

describe('image library', () => {
  it('keeps each image with its size, bytes and a WebP thumbnail of at most 480 px', async () => {
    const made: Image[] = [];
    for (const [format, w, h] of [
      ['jpeg', 1200, 800],
      ['png', 300, 900],
      ['webp', 640, 640],
      ['gif', 200, 100],
    ] as const) {
      const answer = await uploadImage(await makeImage(w, h, format), `壁纸-${format}.${format}`, {
        category: '壁纸',
        tags: ['风景', format],
        author: '小王',
      });
      expect([answer.code, answer.message]).toEqual([200, '图片已上传']);
      const image = answer.data?.image as Image;
      expect([image.width, image.height]).toEqual([w, h]);
      const thumb = await fetch(server.url + image.thumbUrl);
      expect(thumb.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(Math.min(480, Math.max(w, h)));
      made.push(image);
    }
    const files = await admin<{ list: { id: number; usedBy: string[] }[] }>('/api/files/fetch/page', { kind: 'image' });
    expect(files.list.find((f) => f.usedBy.some((u) => u.includes('壁纸-png')))).toBeTruthy();

    const page = await admin<{ list: Image[]; total: number }>('/api/unsplash/fetch/page', { tag: 'png' });
    expect(page.list.map((i) => i.id)).toEqual([made[1].id]);
    expect(page.list[0].tags).toEqual(['风景', 'png']);
  });

  it('the same bytes again keep nothing new and answer the image already kept', async () => {
    const bytes = await makeImage(500, 300, 'jpeg');
    const first = await uploadImage(bytes, '海边.jpg', { category: '风景' });
    expect([first.code, first.data?.duplicate]).toEqual([200, false]);
    const files = storedFiles();
    const db = server.app.services.db;
    const fileRows = await db.selectFrom('files').select('id').orderBy('id').execute();
    const imageRows = await db.selectFrom('images').select('id').orderBy('id').execute();
    const again = await uploadImage(bytes, '海边-副本.jpg', { category: '其他' });
    expect([again.code, again.data?.duplicate, again.data?.image.id]).toEqual([200, true, first.data?.image.id]);
    // Neither the original nor its thumbnail is kept a second time.
    expect(storedFiles()).toBe(files);
    expect(await db.selectFrom('files').select('id').orderBy('id').execute()).toEqual(fileRows);
    expect(await db.selectFrom('images').select('id').orderBy('id').execute()).toEqual(imageRows);
    // A different image is still kept.
    const other = await uploadImage(await makeImage(500, 301, 'jpeg'), '山.jpg');
    expect([other.code, other.data?.duplicate]).toEqual([200, false]);
  });

  it('refuses what is not a whole image with a Chinese message and leaves no file or row', async () => {
    const jpeg = await makeImage(600, 400, 'jpeg');
    const cases: [string, Uint8Array, number, RegExp][] = [
      ['html.png', pngWithHtml, 415, /只接受图片文件/],
      ['logo.svg', svg, 415, /只接受图片文件/],
      ['cut.jpg', jpeg.subarray(0, jpeg.length / 2), 415, /不完整或已损坏/],
      ['empty.png', new Uint8Array(0), 400, /空的/],
      ['big.jpg', await makeImage(1200, 1200, 'png'), 413, /不能超过/],
    ];
    for (const [name, bytes, code, message] of cases) {
      const before = await snapshotTables(server, ['sessions']);
      const files = storedFiles();
      const answer = await uploadImage(bytes, name);
      expect([name, answer.code]).toEqual([name, code]);
      expect(answer.message).toMatch(message);
      expect(await snapshotTables(server, ['sessions'])).toBe(before);
      expect(storedFiles()).toBe(files);
    }
  });

  it('refuses a 20,000 × 20,000 PNG bomb without decoding it', async () => {
    const bomb = pngBomb();
    const files = storedFiles();
    const start = process.memoryUsage().rss;
    let peak = start;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const answer = await uploadImage(bomb, 'bomb.png');
    clearInterval(sampler);
    expect(answer.code).toBe(413);
    expect(answer.message).toMatch(/像素过多/);
    expect(storedFiles()).toBe(files);
    expect(peak - start).toBeLessThan(50 * 1024 * 1024);
    expect(peak).toBeLessThan(300 * 1024 * 1024 + start - Math.min(start, 200 * 1024 * 1024));
  });

  it.runIf(
    singleInstanceOnly(
      'asserts that a change shows at once on the instance that made it; across instances a cached answer is invalidated within a second (cluster.test.ts measures it)',
    ),
  )('enables, disables, moves and removes in bulk; apps see enabled images of a category, paged', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await uploadImage(await makeImage(40 + i, 30), `贴纸${i}.png`, { category: '贴纸', sort: 10 - i });
      const image = answer.data?.image as Image;
      ids.push(image.id);
    }
    await admin('/api/unsplash/disable', { ids: [ids[0]] });
    const first = await server.call('/api/unsplash/fetch/list', { category: '贴纸', page: 0, size: 2 });
    const data = first.body.data as { list: Image[]; hasMore: boolean };
    expect(data.list.map((i) => i.id)).toEqual([ids[4], ids[3]]);
    expect(data.hasMore).toBe(true);
    expect(data.list[0].thumbUrl).toMatch(/^\/files\/.+\.webp$/);
    const bySort = await server.call('/api/unsplash/fetch/list', { category: '贴纸', size: 10, order: 'sort' });
    expect((bySort.body.data as { list: Image[] }).list.map((i) => i.id)).toEqual([ids[4], ids[3], ids[2], ids[1]]);

    await admin('/api/unsplash/move', { ids: [ids[1], ids[2]], category: '背景' });
    // The apps' pages are kept for a moment, but a change made here shows at once.
    const afterMove = await server.call('/api/unsplash/fetch/list', { category: '贴纸', size: 10, order: 'sort' });
    expect((afterMove.body.data as { list: Image[] }).list.map((i) => i.id)).toEqual([ids[4], ids[3]]);
    const categories = await admin<{ categories: { name: string; count: number }[] }>(
      '/api/unsplash/fetch/categories',
      {},
    );
    expect(categories.categories).toContainEqual({ name: '背景', count: 2 });
    const missing = await server.call('/api/unsplash/enable', { ids: [ids[0], 999_999] }, token);
    expect(missing.body.code).toBe(404);

    const files = storedFiles();
    const removed = await admin<{ changed: number }>('/api/unsplash/remove', { ids: [ids[1], ids[2]] });
    expect(removed.changed).toBe(2);
    expect(storedFiles()).toBe(files - 4);
    const rows = await server.app.services.db
      .selectFrom('files')
      .select('id')
      .where('name', 'in', ['贴纸1.png', '贴纸2.png'])
      .execute();
    expect(rows).toEqual([]);
  });
});

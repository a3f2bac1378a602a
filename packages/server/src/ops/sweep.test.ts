import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer, tinyPng } from '../../test/harness';
import { runCli } from '../cli';

describe('storage sweep', () => {
  let server: TestServer;
  let printed: string[];
  const cli = (...args: string[]) => {
    printed = [];
    const { db, dialect, storage } = server.app.services;
    return runCli(args, server.config, {
      print: (line) => printed.push(line),
      open: () => ({ db, dialect, close: async () => {} }),
      storage,
    });
  };
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('finds orphan objects and rows whose object is missing, removes them on request, and leaves uploads alone', async () => {
    const { token } = await server.initAdmin();
    for (let i = 0; i < 3; i++) {
      const answer = await server.upload('/api/finder/single', 'file', tinyPng, `a${i}.png`, token);
      expect(answer.body.code).toBe(200);
    }
    expect(await cli('storage-sweep')).toBe(0);
    expect(printed[0]).toContain('发现 0 个');

    const { db, storage } = server.app.services;
    const orphan = await storage.put(Buffer.from('orphan'), 'png');
    const missing = '2000-01/gone.png';
    await db
      .insertInto('files')
      .values({
        key: missing,
        name: 'x.png',
        mime: 'image/png',
        size: 1,
        sha256: 'x',
        kind: 'image',
        uploader_id: null,
        created_at: 0,
      })
      .execute();
    expect(await cli('storage-sweep')).toBe(1);
    expect(printed.join('\n')).toContain(`对象 ${orphan}`);
    expect(printed.join('\n')).toContain(missing);

    expect(await cli('storage-sweep', '--remove')).toBe(0);
    expect(await storage.read(orphan)).toBeUndefined();
    expect(await cli('storage-sweep')).toBe(0);
    expect(printed.slice(0, 2).join('\n')).toMatch(/发现 0 个[\s\S]*发现 0 条/);
  });

  it('tells uploads in flight from interrupted ones by their pending keys, and exits 1 only for what it cannot fix', async () => {
    const { db, storage } = server.app.services;
    const now = Date.now();
    // In flight: key reserved a moment ago, object written, row not yet committed.
    const inFlight = '2026-11/inflight.png';
    const interruptedStored = '2026-11/interrupted-a.png';
    const interruptedMissing = '2026-11/interrupted-b.png';
    await db
      .insertInto('pending_uploads')
      .values([
        { key: inFlight, started_at: now },
        { key: interruptedStored, started_at: now - 2 * 60 * 60 * 1000 },
        { key: interruptedMissing, started_at: now - 2 * 60 * 60 * 1000 },
      ])
      .execute();
    await storage.put(Buffer.from('a'), 'png', inFlight);
    await storage.put(Buffer.from('b'), 'png', interruptedStored);
    expect(await cli('storage-sweep')).toBe(1);
    const report = printed.join('\n');
    expect(report).toContain('发现 0 个无人引用的存储对象');
    expect(report).toContain('发现 2 个中断的上传');
    expect(report).toContain(`上传 ${interruptedStored}（对象已写入）`);
    expect(report).toContain('1 个上传正在进行');
    expect(await cli('storage-sweep', '--remove')).toBe(0);
    expect(await storage.read(interruptedStored)).toBeUndefined();
    expect(await storage.read(inFlight)).toBeDefined();
    // With no grace (nothing is uploading), the last one counts as interrupted too.
    expect(await cli('storage-sweep', '--remove', '--pending-grace-minutes=0')).toBe(0);
    expect(await storage.read(inFlight)).toBeUndefined();
    expect(await db.selectFrom('pending_uploads').selectAll().execute()).toEqual([]);

    expect(await cli('storage-sweep')).toBe(0);
  });

  it('an upload through the API leaves no pending key behind, also when it fails', async () => {
    const token = await server.login('13800000000', 'Admin12345');
    expect((await server.upload('/api/finder/single', 'file', tinyPng, 'ok.png', token)).body.code).toBe(200);
    expect(
      (await server.upload('/api/finder/single', 'file', Buffer.from('not an image'), 'x.png', token)).body.code,
    ).not.toBe(200);
    const { db } = server.app.services;
    expect(await db.selectFrom('pending_uploads').selectAll().execute()).toEqual([]);
    expect(await cli('storage-sweep')).toBe(0);
  });
});

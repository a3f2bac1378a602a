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
});

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startServer, testDb, tinyPng } from '../../test/harness';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/index';
import { makeBackup, pruneBackups } from './backup';
import { restoreBackup } from './restore';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An empty PostgreSQL database to restore into (PostgreSQL runs only), dropped by `drop`. */
async function emptyDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (testDb !== 'postgres' || !base) return { drop: async () => {} };
  const name = `restore_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

describe('backup and restore', () => {
  it('backs up during a write load; the restore matches the manifest and serves the same data, files and sessions', async () => {
    const server = await startServer();
    const out = mkdtempSync(path.join(tmpdir(), 'appdesk-backups-'));
    const target = mkdtempSync(path.join(tmpdir(), 'appdesk-restore-'));
    const database = await emptyDatabase();
    try {
      const { token } = await server.initAdmin();
      const user = await server.addUser();
      let stop = false;
      let writes = 0;
      const coins = async () => {
        while (!stop) {
          const answer = await server.call('/api/users/update/coins', { id: user.id, delta: 1, reason: '备份' }, token);
          expect(answer.body.code).toBe(200);
          writes += 1;
        }
      };
      let uploaded = 0;
      const uploads = async () => {
        for (let i = 0; !stop; i++) {
          const bytes = Buffer.concat([Buffer.from(tinyPng), Buffer.from(`#${i}`)]);
          expect((await server.upload('/api/finder/single', 'file', bytes, `${i}.png`, token)).body.code).toBe(200);
          uploaded += 1;
        }
      };
      const load = Promise.all([coins(), coins(), uploads()]);
      await sleep(300);
      // An upload to S3 through nginx can take longer than that: the backup names at least one file.
      while (uploaded === 0) await sleep(50);
      const before = writes;
      // Behind nginx (api-cluster) files are in S3: the archive holds the database, the bucket keeps the files.
      const filesOnS3 = Boolean(server.config.storageUrl);
      const source = {
        ...server.app.services,
        dataDir: server.config.dataDir,
        databaseUrl: testDb === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
        filesOnS3,
      };
      const { archive, manifest } = await makeBackup(source, out);
      await sleep(200);
      stop = true;
      await load;
      expect(writes).toBeGreaterThan(before); // the load ran while the backup was made
      expect(manifest.missingFiles).toEqual([]);
      expect(manifest.files.length > 0).toBe(!filesOnS3);
      expect(manifest.rows.users).toBe(2);
      expect(manifest.version.migrations.length).toBeGreaterThan(5);

      const result = await restoreBackup(archive, { dataDir: target, databaseUrl: database.url });
      expect(result.mismatchedRows).toEqual([]);
      // A second restore into the now full folder is refused.
      await expect(restoreBackup(archive, { dataDir: target, databaseUrl: database.url })).rejects.toThrow(
        /不是空的|已有数据表/,
      );

      const handle = openDatabase({ dataDir: target, databaseUrl: database.url, schema: manifest.database.schema });
      const restoredConfig = { dataDir: target, webDir: undefined, databaseUrl: database.url };
      const restored = await buildApp(loadConfig({ ...restoredConfig, storageUrl: server.config.storageUrl }), {
        database: handle,
        logger: false,
      });
      try {
        await restored.app.listen({ port: 0, host: '127.0.0.1' });
        const url = `http://127.0.0.1:${(restored.app.server.address() as AddressInfo).port}`;
        // The session of before lives in the database: it still works.
        const info = await fetch(`${url}/api/users/fetch/info`, { method: 'POST', headers: { token } });
        expect((await info.json()).code).toBe(200);
        // The balance equals its ledger: the snapshot is one consistent point.
        const row = await handle.db
          .selectFrom('users')
          .select('coins')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
        const ledger = await handle.db
          .selectFrom('coin_records')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        expect(Number(row.coins)).toBe(Number(ledger.n));
        expect(Number(row.coins)).toBeGreaterThan(0);
        for (const file of manifest.files) {
          const served = Buffer.from(await (await fetch(`${url}/files/${file.key}`)).arrayBuffer());
          expect(createHash('sha256').update(served).digest('hex')).toBe(file.sha256);
        }
        if (filesOnS3) {
          // The restored rows still name objects in the bucket, which it serves.
          const kept = await handle.db.selectFrom('files').select(['key', 'sha256']).limit(3).execute();
          expect(kept.length).toBeGreaterThan(0);
          for (const file of kept) {
            const served = Buffer.from(await (await fetch(`${url}/files/${file.key}`)).arrayBuffer());
            expect(createHash('sha256').update(served).digest('hex'), file.key).toBe(file.sha256);
          }
        }
      } finally {
        await restored.close();
      }
    } finally {
      await server.close();
      await database.drop();
      rmSync(out, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  }); // 6 s alone, 11–21 s beside the other projects, past 60 s on CI at load 25: the project limit

  it('keeps the newest archives', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'appdesk-prune-'));
    const { writeFile } = await import('node:fs/promises');
    const names = ['20261120', '20261121', '20261122', '20261123'].map((d) => `appdesk-backup-${d}-010000-000.tar.gz`);
    for (const name of [...names, 'notes.txt']) await writeFile(path.join(dir, name), '');
    expect(await pruneBackups(dir, 2)).toEqual([names[1], names[0]]);
    rmSync(dir, { recursive: true, force: true });
  });
});

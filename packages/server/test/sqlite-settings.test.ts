/** SQLITE_SYNCHRONOUS (issue 7): operators who need every commit to survive a power loss choose FULL. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/index';
import { testDb } from './harness';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  delete process.env.SQLITE_SYNCHRONOUS;
});

async function synchronousOf(synchronous?: 'normal' | 'full') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-sync-'));
  dirs.push(dataDir);
  const handle = openDatabase({ dataDir, synchronous, poolSize: 2 });
  try {
    // Ask every connection of the pool (two at once, so both answer).
    const answers = await Promise.all(
      [0, 1].map(() => sql<{ synchronous: number }>`pragma synchronous`.execute(handle.db)),
    );
    return answers.map((a) => a.rows[0]?.synchronous);
  } finally {
    await handle.close();
  }
}

describe.runIf(testDb === 'sqlite')('SQLITE_SYNCHRONOUS', () => {
  it('defaults to NORMAL (1) and FULL (2) applies to every pooled connection', async () => {
    expect(await synchronousOf()).toEqual([1, 1]);
    expect(await synchronousOf('full')).toEqual([2, 2]);
  });

  it('is read from the environment and refuses other values', () => {
    expect(loadConfig().sqliteSynchronous).toBe('normal');
    process.env.SQLITE_SYNCHRONOUS = 'FULL';
    expect(loadConfig().sqliteSynchronous).toBe('full');
    process.env.SQLITE_SYNCHRONOUS = 'off';
    expect(() => loadConfig()).toThrow(/SQLITE_SYNCHRONOUS/);
  });
});

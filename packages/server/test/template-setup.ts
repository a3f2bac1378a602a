import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/index';

/*
 * The API projects' global setup: the database every test server starts from, migrated once per run
 * (the harness copies it per test server instead of running every migration again). SQLite: a file
 * the harness copies. PostgreSQL: a schema migrated once and dumped (pg_dump) as SQL naming the schema
 * TEMPLATE_SCHEMA, which the harness runs with its own schema's name in one round trip.
 * Measured on the 2-core machine at load 16-17: a PostgreSQL test server started in 2.9-6.6 s migrating
 * and 1.9-3.0 s from the template; SQLite's migrations are cheap (about 0.95 s to start either way).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template: a SQLite file or a PostgreSQL dump (TEMPLATE_SCHEMA for the schema's name). */
    databaseTemplate: { sqlite?: string; postgresDump?: string };
  }
}

/** The placeholder the PostgreSQL dump names its schema by. */
export const TEMPLATE_SCHEMA = 'appdesk_template_schema';

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'appdesk-template-'));
  const config = loadConfig({ dataDir: dir, webDir: undefined, logLevel: 'warn' });
  if (project.name === 'api-sqlite') {
    const app = await buildApp(config, { logger: false });
    await app.close();
    // One self-contained file (no WAL beside it) that a copy takes whole.
    const file = path.join(dir, 'template.sqlite');
    const source = new SQLite(path.join(dir, 'appdesk.sqlite'));
    source.prepare('vacuum into ?').run(file);
    source.close();
    project.provide('databaseTemplate', { sqlite: file });
  } else {
    const url = process.env.TEST_DATABASE_URL as string;
    const schema = `appdesk_template_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema ${schema}`);
      const app = await buildApp(config, {
        logger: false,
        database: openDatabase({ databaseUrl: url, dataDir: dir, schema }),
      });
      await app.close();
      let dump: string;
      try {
        dump = execFileSync(
          'pg_dump',
          ['--dbname', url, '--schema', schema, '--inserts', '--no-owner', '--no-privileges', '--no-comments'],
          { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
        );
      } catch (error) {
        // No pg_dump (or one older than the server): every test server migrates its own schema.
        console.warn(`pg_dump failed, each test server migrates its own schema: ${(error as Error).message}`);
        project.provide('databaseTemplate', {});
        return () => rmSync(dir, { recursive: true, force: true });
      }
      const file = path.join(dir, 'template.sql');
      writeFileSync(
        file,
        dump
          // psql's meta-commands (\restrict) and comments are not SQL the server takes.
          .split('\n')
          .filter((line) => !line.startsWith('\\') && !line.startsWith('--'))
          .join('\n')
          .replaceAll(schema, TEMPLATE_SCHEMA),
      );
      project.provide('databaseTemplate', { postgresDump: file });
    } finally {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  }
  return () => rmSync(dir, { recursive: true, force: true });
}

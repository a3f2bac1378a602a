import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { TestProject } from 'vitest/node';
import { S3_KEY, S3_SECRET } from '../../../scripts/cluster';
import { freePort } from './free-port';

/*
 * The api-cluster project's global setup: one S3 store (Debian's radosgw, scripts/s3-test-server.sh)
 * for the whole run, every test server a prefix of its own in one bucket. radosgw takes about 30 s
 * to start, so it starts in the background: the harness waits for `ready` (or `failed`) in the folder
 * only when its first test server starts, and the other projects' tests run meanwhile.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    clusterS3: { dir: string; endpoint: string; bucket: string };
  }
}

const script = path.resolve(import.meta.dirname, '../../../scripts/s3-test-server.sh');

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'appdesk-cluster-s3-'));
  const s3Dir = path.join(dir, 's3');
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = `appdesk-test-${randomBytes(4).toString('hex')}`;
  project.provide('clusterS3', { dir, endpoint, bucket });
  const child: ChildProcess = spawn(script, ['start', s3Dir, String(port)], {
    env: {
      ...process.env,
      S3_TEST_MON_PORT: String(await freePort()),
      S3_TEST_MON2_PORT: String(await freePort()),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk) => {
    errors += String(chunk);
  });
  const started = new Promise<void>((resolve) => {
    child.once('exit', async (code) => {
      try {
        if (code !== 0) throw new Error(`radosgw did not start (exit ${code}): ${errors.slice(-1000)}`);
        const client = new S3Client({
          region: 'us-east-1',
          endpoint,
          forcePathStyle: true,
          credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_SECRET },
        });
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
        client.destroy();
        writeFileSync(path.join(dir, 'ready'), endpoint);
      } catch (error) {
        writeFileSync(path.join(dir, 'failed'), String((error as Error).message));
      }
      resolve();
    });
  });
  return async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await started;
    try {
      execFileSync(script, ['stop', s3Dir], { stdio: 'ignore' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

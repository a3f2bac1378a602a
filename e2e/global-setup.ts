import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makePaymentKeys } from '../packages/server/test/payment-signers';
import { makeTestChain } from '../packages/server/test/storekit-chain';
import { startCluster } from '../scripts/cluster';

/**
 * Starts the built server on a fresh data folder; the returned function stops it and removes the data.
 * E2E_TOPOLOGY=cluster: instead nginx on E2E_PORT in front of two instances on a fresh PostgreSQL
 * database (TEST_DATABASE_URL's server) and one S3 store (radosgw), as scripts/cluster.ts starts them.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = process.env.E2E_PORT ?? '8931';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'appdesk-e2e-'));
  process.env.E2E_DATA_DIR = dataDir;
  const root = path.resolve(import.meta.dirname, '..');
  // StoreKit receipts are verified against a chain of the suite's own; specs sign with it (storekit-chain.json).
  const chain = makeTestChain();
  writeFileSync(path.join(dataDir, 'apple-root.der'), chain.rootDer);
  writeFileSync(path.join(dataDir, 'storekit-chain.json'), JSON.stringify(chain.material));
  // Alipay and WeChat Pay with keys of the suite's own; specs sign notifications with payment-keys.json.
  const pay = makePaymentKeys();
  writeFileSync(path.join(dataDir, 'payment-keys.json'), JSON.stringify(pay));
  const env = {
    APPLE_BUNDLE_ID: 'com.example.tailor',
    APPLE_APP_APPLE_ID: '1234',
    APPLE_ENVIRONMENTS: 'Sandbox',
    APPLE_ROOT_CERTIFICATES: path.join(dataDir, 'apple-root.der'),
    ALIPAY_APP_ID: pay.alipayAppId,
    ALIPAY_PUBLIC_KEY: pay.alipayPublicKey,
    WECHATPAY_MCH_ID: pay.wechatMchId,
    WECHATPAY_API_V3_KEY: pay.wechatApiV3Key,
    WECHATPAY_PLATFORM_PUBLIC_KEY: pay.wechatPublicKey,
    WECHATPAY_PLATFORM_SERIAL: pay.wechatSerial,
    // Every spec registers its own users from 127.0.0.1; the default 20 sign-ups per address and
    // hour would refuse the later specs (429). The quota itself is tested in quotas.test.ts.
    REGISTRATIONS_PER_ADDRESS_PER_HOUR: '100000',
    // Apps' secrets can be set in the console (应用管理), sealed under a key of the run's own.
    APPDESK_SECRETS_KEY: randomBytes(32).toString('base64'),
  };
  if (process.env.E2E_TOPOLOGY === 'cluster') {
    const cluster = await startCluster({
      port: Number(port),
      env: { ...env, LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn' },
    });
    return async () => {
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const server: ChildProcess = spawn(process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/api/allocation/fetch`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const answer = await fetch(url, { method: 'POST' });
      if (answer.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}

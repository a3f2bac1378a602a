import { existsSync } from 'node:fs';
import path from 'node:path';
import { uploadLimits } from '@appdesk/contract/constants';
import { type SecretKeys, secretKeysFromEnv } from './core/secret-box';
import { type EnvironmentPayments, loadPaymentsConfig } from './payments-config';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://...` selects PostgreSQL; unset means SQLite under dataDir. */
  databaseUrl: string | undefined;
  logLevel: string;
  /** Folder holding the built web app, served as the SPA; absent in API-only tests. */
  webDir: string | undefined;
  limits: { image: number; audio: number; package: number; jsonBody: number; imagePixels: number };
  /**
   * What one caller may add per hour (docs/security.md#quotas): registrations per client address,
   * verification mails, uploads of accounts that are not administrators.
   */
  quotas: Quotas;
  /**
   * Which reverse proxies' X-Forwarded-For entries to believe: false (none: the socket's address),
   * a number of hops (1: the address the one proxy appended, the right-most entry), or the
   * proxies' addresses/CIDRs. Never the left-most entry, which the client writes.
   */
  trustProxy: false | number | string[];
  /** Address of the site as users reach it, for links in emails. */
  publicUrl: string;
  /** `smtp://user:pass@host:587` or `smtps://...`; unset means verification links are only logged. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** SQLite durability: `normal` (default in WAL) or `full` (every commit survives a power loss). */
  sqliteSynchronous: 'normal' | 'full';
  /** SQLite: how long a writer waits for the lock before the call answers 503. */
  sqliteBusyTimeoutMs: number;
  /** PostgreSQL connections per process; undefined: twice the cores, at least 4 (db/index.ts). */
  databasePoolSize: number | undefined;
  /** PostgreSQL: how long a query waits for a pooled connection before the call answers 503. */
  databasePoolWaitMs: number;
  /** Payment platforms' keys (payments-config.ts); a platform left unset is off. */
  payments: EnvironmentPayments;
  /** Encrypts the secrets set in 应用管理 (core/secret-box.ts); unset: secrets only from the environment. */
  secretKeys: SecretKeys | undefined;
  /** `s3://bucket[/prefix]?endpoint=…` stores uploads in S3-compatible storage; unset: `files/` in dataDir. */
  storageUrl: string | undefined;
  /** `GET /metrics` needs `Authorization: Bearer <this>`; unset: only callers on this machine get it. */
  metricsToken: string | undefined;
  /** How long a client may take to send a request's headers before it is answered 408 and cut off. */
  headersTimeoutMs: number;
  /**
   * How long a client may take to send a whole request, body included (0: no limit). Long enough for
   * the largest upload over a slow link: it bounds a slow-body client, it must not cut a real upload.
   */
  requestTimeoutMs: number;
  /** On SIGTERM: how long requests in flight may take to finish before the process exits anyway. */
  shutdownTimeoutMs: number;
  /**
   * On SIGTERM, before the listener closes: how long every new request is answered HTTP 503 unrun, so
   * a proxy in front passes it on and stops sending here (ops/shutdown.ts). 0 without a proxy.
   */
  shutdownRefuseMs: number;
  /**
   * A console session (one used on an admin endpoint) unused this long ends (等保二级; core/sessions.ts,
   * docs/permissions.md). The apps' sessions keep their 7-day sliding expiry.
   */
  consoleIdleMs: number;
  /** Scheduled backups (BACKUP_DIR set): where, how often, how many archives to keep. */
  backup: { dir: string; intervalMs: number; keep: number } | undefined;
}

export interface Quotas {
  registrationsPerAddressPerHour: number;
  /** Verification mails: one per account per this many ms, and so many per account and per recipient a day. */
  mailIntervalMs: number;
  mailsPerAccountPerDay: number;
  mailsPerAddressPerHour: number;
  uploadsPerUserPerHour: number;
  uploadBytesPerUserPerHour: number;
  /** All accounts that are not administrators together. */
  uploadBytesPerHour: number;
  /** Promotion reports (rows) one client address may send per minute, per server process. */
  selfappReportsPerAddressPerMinute: number;
  /** Browser error reports (features/clienterror) one client address may send per minute, and all together. */
  clientErrorsPerAddressPerMinute: number;
  clientErrorsPerMinute: number;
}

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function synchronous(raw: string | undefined): 'normal' | 'full' {
  const value = (raw || 'normal').toLowerCase();
  if (value !== 'normal' && value !== 'full')
    throw new Error(`SQLITE_SYNCHRONOUS must be normal or full, got "${raw}"`);
  return value;
}

/**
 * TRUST_PROXY: unset/false/0 trusts no proxy; a number is the count of proxy hops in front of the
 * server; anything else is a comma-separated list of proxy addresses or CIDR ranges. `true` means
 * one hop (it used to trust every hop, i.e. whatever the client put first).
 */
export function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of list) {
    if (!/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry)) {
      throw new Error(`TRUST_PROXY must be a hop count or proxy addresses (CIDR allowed), got "${entry}"`);
    }
  }
  return list;
}

/** Reads configuration from the environment (and an optional .env file in the working directory). */
export function loadConfig(overrides: Partial<Config> = {}): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const defaultWeb = path.resolve(import.meta.dirname, '../../web/dist');
  return {
    port: int('PORT', 8000),
    host: process.env.HOST || '127.0.0.1',
    dataDir: path.resolve(process.env.DATA_DIR || './data'),
    databaseUrl: process.env.DATABASE_URL || undefined,
    logLevel: process.env.LOG_LEVEL || 'info',
    webDir: existsSync(defaultWeb) ? defaultWeb : undefined,
    limits: {
      image: int('UPLOAD_IMAGE_MAX_BYTES', uploadLimits.image),
      audio: int('UPLOAD_AUDIO_MAX_BYTES', uploadLimits.audio),
      package: int('UPLOAD_PACKAGE_MAX_BYTES', uploadLimits.package),
      jsonBody: int('JSON_BODY_MAX_BYTES', 1024 * 1024),
      imagePixels: int('UPLOAD_IMAGE_MAX_PIXELS', 40_000_000),
    },
    quotas: {
      registrationsPerAddressPerHour: int('REGISTRATIONS_PER_ADDRESS_PER_HOUR', 20),
      mailIntervalMs: int('MAIL_INTERVAL_SECONDS', 60) * 1000,
      mailsPerAccountPerDay: int('MAILS_PER_ACCOUNT_PER_DAY', 10),
      mailsPerAddressPerHour: int('MAILS_PER_ADDRESS_PER_HOUR', 30),
      uploadsPerUserPerHour: int('UPLOADS_PER_USER_PER_HOUR', 30),
      uploadBytesPerUserPerHour: int('UPLOAD_BYTES_PER_USER_PER_HOUR', 50 * 1024 * 1024),
      uploadBytesPerHour: int('UPLOAD_BYTES_PER_HOUR', 1024 * 1024 * 1024),
      selfappReportsPerAddressPerMinute: int('SELFAPP_REPORTS_PER_ADDRESS_PER_MINUTE', 120),
      clientErrorsPerAddressPerMinute: int('CLIENT_ERRORS_PER_ADDRESS_PER_MINUTE', 60),
      clientErrorsPerMinute: int('CLIENT_ERRORS_PER_MINUTE', 600),
    },
    trustProxy: parseTrustProxy(process.env.TRUST_PROXY),
    publicUrl: (process.env.PUBLIC_URL || `http://localhost:${int('PORT', 8000)}`).replace(/\/$/, ''),
    smtpUrl: process.env.SMTP_URL || undefined,
    smtpFrom: process.env.SMTP_FROM || 'AppDesk <no-reply@localhost>',
    sqliteSynchronous: synchronous(process.env.SQLITE_SYNCHRONOUS),
    sqliteBusyTimeoutMs: int('SQLITE_BUSY_TIMEOUT_MS', 5000),
    databasePoolSize: int('DATABASE_POOL_SIZE', 0) || undefined,
    databasePoolWaitMs: int('DATABASE_POOL_WAIT_MS', 10_000),
    payments: loadPaymentsConfig(),
    secretKeys: secretKeysFromEnv(),
    storageUrl: process.env.STORAGE_URL || undefined,
    metricsToken: process.env.METRICS_TOKEN || undefined,
    headersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS', 20_000),
    requestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 60 * 60 * 1000),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000),
    shutdownRefuseMs: int('SHUTDOWN_REFUSE_MS', 0),
    consoleIdleMs: int('APPDESK_CONSOLE_IDLE_MINUTES', 30) * 60 * 1000,
    backup: process.env.BACKUP_DIR
      ? {
          dir: path.resolve(process.env.BACKUP_DIR),
          intervalMs: int('BACKUP_INTERVAL_HOURS', 24) * 60 * 60 * 1000,
          keep: int('BACKUP_KEEP', 7),
        }
      : undefined,
    ...overrides,
  };
}

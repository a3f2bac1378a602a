import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { Db, Dialect } from '../db/index';
import type { SessionUser } from '../features/users/sessions';
import type { LocalStorage } from '../storage/local';
import type { UploadedFile } from './uploads';

/** What every handler can use; `db` is the transaction when the route declares one. */
export interface Services {
  config: Config;
  db: Db;
  dialect: Dialect;
  storage: LocalStorage;
}

export interface AuditEntry {
  /** Who acted; defaults to the signed-in account (first-run setup names the admin it creates). */
  actorId?: number | null;
  action: string;
  targetType: string;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

export interface RequestContext extends Services {
  /** The signed-in account; null only on public endpoints. */
  user: SessionUser | null;
  sessionId: number | null;
  ip: string;
  userAgent: string | null;
  log: FastifyBaseLogger;
  /** The uploaded file, on upload endpoints. */
  file: UploadedFile | null;
  /** Appends to the audit log inside the same transaction as the change. */
  audit(entry: AuditEntry): Promise<void>;
  /** Runs work in one transaction with a context whose db and audit use it. */
  inTransaction<T>(work: (ctx: RequestContext) => Promise<T>): Promise<T>;
}

/** Narrows ctx.user on endpoints whose access level guarantees a signed-in account. */
export function signedIn(ctx: RequestContext): SessionUser {
  if (!ctx.user) throw new Error('signedIn() used on a public endpoint');
  return ctx.user;
}

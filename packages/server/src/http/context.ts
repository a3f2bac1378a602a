import type { Notice } from '@appdesk/contract/endpoints/notices';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { AppRegistry } from '../core/apps';
import type { OperatorGrants } from '../core/grants';
import type { SessionLookup, SessionUser } from '../core/sessions';
import type { Db, Dialect } from '../db/index';
import type { FileReference } from '../storage/references';
import type { FileStorage } from '../storage/types';
import type { UploadedFile } from './uploads';

/** A feature's source of header-bell notices for the signed-in operator (features/<f>/notices.ts). */
export type NoticeSource = (ctx: RequestContext<SessionUser>) => Promise<Notice[]>;

/**
 * What a feature requires of an operator before any admin call, checked after the call's permission
 * (features/<f>/gate.ts): it throws an ApiError to refuse, e.g. a second factor their role asks for.
 */
export type AdminGate = (db: Db, user: SessionUser, grants: OperatorGrants) => Promise<void>;

/** What every handler can use; `db` is the transaction when the route declares one. */
export interface Services {
  config: Config;
  db: Db;
  dialect: Dialect;
  storage: FileStorage;
  /** Every feature's notice source, found at start-up. */
  noticeSources: NoticeSource[];
  /** Every feature's columns holding stored files' URLs (features/<f>/files.ts), found at start-up. */
  fileReferences: FileReference[];
  /** Every feature's requirement of operators (features/<f>/gate.ts), found at start-up. */
  adminGates: AdminGate[];
  /** The company's apps (core/apps.ts), read from a short-lived cache. */
  apps: AppRegistry;
  /** Called with the path each time a handler starts (the generated tests count what reaches handlers). */
  onHandlerRun?: (path: string) => void;
}

/**
 * One operation-log row of the call. Its action and target type are the ones the contract
 * declares for the endpoint (`audit`); the handler says which record and what changed.
 */
export interface AuditRecord {
  /** Who acted; defaults to the signed-in account (first-run setup names the admin it creates). */
  actorId?: number | null;
  targetId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

// The admin gates are the route's to run (http/route.ts authorize), not a handler's.
export interface RequestContext<U extends SessionUser | null = SessionUser | null>
  extends Omit<Services, 'adminGates'> {
  /** The signed-in account: never null where the contract says the caller is signed in. */
  user: U;
  sessionId: number | null;
  /** An admin call's operator: their permissions and the apps they reach (core/grants.ts); null on other calls. */
  grants: OperatorGrants | null;
  ip: string;
  userAgent: string | null;
  log: FastifyBaseLogger;
  /** The uploaded file, on upload endpoints. */
  file: UploadedFile | null;
  /** Records the call in the operation log, inside the same transaction as the change. */
  audit(record: AuditRecord): Promise<void>;
  /**
   * A stored file this call replaced (an old avatar or logo, as its `/files/...` URL): once the
   * call has committed it is deleted, with its `files` row, unless some column still refers to it.
   */
  releaseFile(url: string | null | undefined): void;
  /** Runs once the call's change is committed (a server's kept copies are dropped then, not before). */
  afterCommit(work: () => void): void;
  /**
   * A write that must stay even when the call fails (attempt counters, the 登录日志): done now on the
   * call's database and, if the call's transaction then rolls back, done again on its own afterwards.
   * Outside a transaction it is simply done. Its result is the first run's.
   */
  survivesFailure<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /**
   * The session behind the request's `token` header, also on public endpoints (looked up once,
   * on first use): sign-in uses it to recognise a device that already holds a live session.
   */
  presentedSession(): Promise<SessionLookup>;
  /** Names who the call is about on its log line (the phone is masked there). */
  identify(who: { userId?: number; phone?: string }): void;
  /** Runs work in one transaction with a context whose db and audit use it. */
  inTransaction<T>(work: (ctx: RequestContext<U>) => Promise<T>): Promise<T>;
}

/** The context of an endpoint whose caller is signed in (access `user` or `admin`). */
export type SignedInContext = RequestContext<SessionUser>;

import type { Generated } from 'kysely';

/**
 * Table types. Times are integer epoch milliseconds (UTC); flags are integers 0/1 so both
 * SQLite and PostgreSQL return the same JavaScript values; money is integer fen.
 */
export interface AllocationTable {
  id: number;
  logo: string | null;
  service: string | null;
  title: string;
  qq: string;
  slogen: string;
  about: string;
  /** ICP 备案号 and 公安备案号, shown in the home page footer. */
  icp: string;
  police: string;
  android_url: string;
  ios_url: string;
  /** 用户协议 and 隐私政策, Markdown, served as pages at /legal/agreement and /legal/privacy. */
  agreement: string;
  privacy: string;
  is_init: number;
  created_at: number;
  updated_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  phone: string;
  password_hash: string;
  nickname: string;
  avatar: string | null;
  email: string | null;
  email_verified: number;
  is_admin: number;
  status: 'normal' | 'blocked';
  coins: number;
  // vip_expires_at is left in the table as migration 202612012100_vip_per_app read it: VIP is per
  // app now (features/vip, vip_entitlements), so it is not part of this type.
  /** The app the account registered in. */
  app: string | null;
  channel: string | null;
  last_login_at: number | null;
  last_active_at: number | null;
  /** 1: the password was chosen by someone else (生成账号, an operator's reset); only a change is allowed. */
  must_change_password: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** The app signed in to (login's or registration's `app`; features/sessions migration 202612012110). */
  app: string;
  /** SHA-256 hex of the token; the token itself is never stored. */
  token_hash: string;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  /**
   * 1 once the session has been used on an admin endpoint: a console session, which ends after the
   * console's idle time (features/sessions migration 202612020130, core/sessions.ts).
   */
  console: Generated<number>;
}

export interface LoginAttemptsTable {
  /** 'phone:<phone>' or 'ip:<address>'. */
  key: string;
  failures: number;
  window_start: number;
  locked_until: number | null;
}

/** 登录日志: one row per sign-in attempt. The phone is stored whole (to filter by it) and shown masked. */
export interface LoginLogTable {
  id: Generated<number>;
  /** The account the phone belongs to, when there is one. */
  user_id: number | null;
  phone: string;
  success: number;
  /** Why it ended so (loginReasons in the contract). */
  reason: string;
  /** The answer's code (200, 401, 403, 429, ...). */
  code: number;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: string | null;
  after: string | null;
  ip: string | null;
  created_at: number;
}

export interface FilesTable {
  id: Generated<number>;
  key: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  kind: string;
  uploader_id: number | null;
  /** SHA-256 of the claim token a public upload answered with (0011_upload_claims); null otherwise. */
  claim_sha256: string | null;
  created_at: number;
}

export interface EmailTokensTable {
  id: Generated<number>;
  user_id: number;
  email: string;
  token_hash: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface CoinRecordsTable {
  id: Generated<number>;
  user_id: number;
  delta: number;
  balance_after: number;
  reason: string;
  ref_type: string | null;
  ref_id: string | null;
  operator_id: number | null;
  note: string | null;
  created_at: number;
}

export interface MessagesTable {
  id: Generated<number>;
  /** The app whose users' inboxes show it. */
  app: string;
  title: string;
  content: string;
  /** null: addressed to every user. */
  user_id: number | null;
  blocked: number;
  author_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface MessageReadsTable {
  message_id: number;
  user_id: number;
  read_at: number;
}

export interface KeyValuesTable {
  id: Generated<number>;
  app: string;
  key: string;
  value: string;
  description: string;
  created_at: number;
  updated_at: number;
}

/** The first answer of an idempotent write, per caller and Idempotency-Key (http/idempotency.ts). */
export interface IdempotencyKeysTable {
  id: Generated<number>;
  /** `user:<id>` for a signed-in caller, `public` otherwise (the body, with its password digest, must match too). */
  scope: string;
  key: string;
  path: string;
  /** SHA-256 of the path and the validated input: the same key with another request is refused. */
  fingerprint: string;
  /** JSON of the answer's data; null only inside the transaction that is producing it. */
  answer: string | null;
  created_at: number;
}

/** Counts kept by triggers (migrations/helpers.ts keepCount), read by the lists. */
export interface RowCountsTable {
  name: string;
  n: number;
}

/**
 * apps: the company's apps (应用管理). `code` never changes: app-scoped rows and the apps' calls
 * name it. Settings that are not secret are plain columns; secrets live in app_secrets.
 */
export interface AppsTable {
  id: Generated<number>;
  code: string;
  name: string;
  icon: string;
  description: string;
  enabled: number;
  android_package: string;
  ios_bundle_id: string;
  /** App Store Connect's numeric id of the app ('' when not on the App Store). */
  apple_app_id: string;
  /** JSON: [{ channel, storeLink }], the channels it ships on ('' link: the channel's default). */
  channels: string;
  /** APP 备案号, shown on its legal pages. */
  icp_filing: string;
  /** Comma-separated App Store environments its purchases may come from. */
  apple_environments: string;
  alipay_app_id: string;
  alipay_public_key: string;
  wechat_mch_id: string;
  wechat_app_id: string;
  wechat_platform_public_key: string;
  wechat_platform_serial: string;
  created_at: number;
  updated_at: number;
}

/** app_secrets: one encrypted setting of an app (core/secret-box.ts); the plain value is never stored. */
export interface AppSecretsTable {
  app_id: number;
  kind: string;
  sealed: string;
  set_at: number;
  set_by: number | null;
}

/**
 * roles: what a group of operators may do (permission keys of the contract's catalog) and in which
 * apps. A built-in role (`builtin`) cannot be removed; 超级管理员's stored permissions are ignored:
 * it holds all (core/grants.ts).
 */
export interface RolesTable {
  id: Generated<number>;
  builtin: string | null;
  name: string;
  description: string;
  /** JSON array of permission keys. */
  permissions: string;
  /** JSON array of app codes; null: every app, also apps registered later. */
  apps: string | null;
  /** 1: its operators must sign in with a second factor. */
  require_totp: number;
  created_at: number;
  updated_at: number;
}

/** Which roles an operator (users.is_admin = 1) holds. */
export interface OperatorRolesTable {
  user_id: number;
  role_id: number;
}

/** An operator's own settings: a further limit on apps within their roles' (null: none). */
export interface OperatorsTable {
  user_id: number;
  /** JSON array of app codes, or null. */
  apps: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * The core tables: every feature may read and write them. Each feature declares its own tables in
 * features/<f>/tables.ts as `<F>Tables`; its database type is `FeatureDb<<F>Tables>` (db/index.ts), and
 * test/table-ownership.test.ts refuses a feature's code naming another feature's table outside its allow-list.
 */
export interface CoreDatabase {
  row_counts: RowCountsTable;
  allocation: AllocationTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  login_log: LoginLogTable;
  audit_log: AuditLogTable;
  files: FilesTable;
  email_tokens: EmailTokensTable;
  coin_records: CoinRecordsTable;
  messages: MessagesTable;
  message_reads: MessageReadsTable;
  key_values: KeyValuesTable;
  idempotency_keys: IdempotencyKeysTable;
  apps: AppsTable;
  app_secrets: AppSecretsTable;
  roles: RolesTable;
  operator_roles: OperatorRolesTable;
  operators: OperatorsTable;
}

/** Every table: the core ones and, merged in by each feature's tables.ts, the features' own. */
export interface Database extends CoreDatabase {}

import type { z } from 'zod';
import type { UploadAccept } from './constants';
import type { EndpointPermission } from './permissions';

/** Who may call an endpoint; the server enforces it (docs/architecture.md#the-api-contract). */
export type Access = 'public' | 'user' | 'admin';

/**
 * How the operation log reads values: a duration in milliseconds (「31 天 2 小时」), an amount in
 * fen (「¥18.00」), a size in bytes (「1.5 MB」), a media type (「PNG 图片」), a stored file's URL
 * (「2026-11 上传的 PNG 图片」), or `hidden`: internal bookkeeping (a digest, a storage key) the
 * log keeps in its raw data but does not list as a change.
 */
export type AuditFormat = 'duration' | 'fen' | 'bytes' | 'mime' | 'file' | 'hidden';

/** One field of a target's before/after as the operation log names and reads it. */
export interface AuditField {
  label: string;
  /** The Chinese words for the field's stored codes. */
  values?: readonly { value: string; label: string }[];
  /** The field holds apps' codes: its words are the apps' names, which are data (应用管理). */
  apps?: true;
  format?: AuditFormat;
}

/**
 * The kind of record an operation-log row is about, with its Chinese name, and the fields its
 * handlers record that no endpoint's schema names (or names otherwise than the log should).
 */
export interface AuditTarget {
  type: string;
  label: string;
  /** The console page a log row about such a record links to (null: none, e.g. an export's file). */
  page: AuditTargetPage | null;
  fields: Readonly<Record<string, AuditField>>;
}

/**
 * An admin page (its folder under packages/web/src/pages/admin) and, where that page opens one
 * record from its URL, the query that does it with `{id}` for the record's id (`detail={id}`).
 */
export interface AuditTargetPage {
  key: string;
  open?: string;
}

/**
 * What a write records in the operation log: exactly one row per successful call, with this
 * action and the Chinese label the operation log page shows.
 */
export interface AuditDecl {
  action: string;
  label: string;
  target: AuditTarget;
}

export interface EndpointDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  access: Access;
  /**
   * Admin endpoints: the permission an operator needs for the call (permissions.ts), or
   * ANY_OPERATOR for the console's own plumbing. Required for every admin endpoint; the server
   * refuses an operator without it (403) before the handler runs.
   */
  permission?: EndpointPermission;
  /** Chinese one-line summary, shown in the OpenAPI document. */
  summary: string;
  /** JSON body, or for uploads the non-file form fields (each sent as JSON). */
  input: I;
  /** What the answer carries. */
  output: O;
  /**
   * A valid input (default `{}`), the base the generated tests vary one field at a time. Ids in it
   * name the records the tests create first: 1 the first admin, 3 an ordinary user, and for
   * other records the first one the table's own `make` example creates.
   */
  example?: z.input<I>;
  /** Writes: the operation-log row the call records. Reads declare none and record none. */
  audit?: AuditDecl;
  /**
   * Where the output goes in the envelope: `data` (default) or `root`, spread beside
   * code and message, for the calls whose fields the product puts there (docs/spec-notes.md#7-requests).
   */
  placement?: 'data' | 'root';
  /**
   * Multipart upload: the form field carrying the file and the kind of file accepted; `media` also
   * reads an image's size and makes its WebP thumbnail, or an audio file's duration, codec and
   * sample rate, before the call (a file that cannot be read whole is refused).
   */
  upload?: { field: string; kind: UploadAccept; media?: true };
  /**
   * Still answered while the account must change a password someone else chose (code 428 for
   * every other call): changing it, reading oneself, signing out.
   */
  openDuringPasswordChange?: boolean;
  /** The answer is a file download (the whole filtered list as .xlsx), not the JSON envelope. */
  download?: 'xlsx';
  /**
   * A write an app may retry (moves coins or money, creates an order, redeems, registers): it
   * accepts an `Idempotency-Key` header, and the same key from the same caller within 24 hours
   * answers the first successful result without doing anything again (server: http/idempotency.ts).
   */
  idempotent?: true;
  /**
   * A batch of this single action's path (batch.ts): each id runs the single action in its own
   * transaction and records its `audit` row, so a call records one row per record that succeeded.
   */
  batchOf?: string;
}

/**
 * Declares one endpoint, keeping the literals the types depend on: the access level (a handler's
 * `ctx.user` is non-null unless public), a root placement and a download.
 */
export function endpoint<
  const A extends Access,
  I extends z.ZodType,
  O extends z.ZodType,
  const P extends 'data' | 'root' = 'data',
  const L extends 'xlsx' = never,
>(
  def: EndpointDef<I, O> & { access: A; placement?: P; download?: L } & ('admin' extends A
      ? { permission: EndpointPermission }
      : { permission?: never }),
): EndpointDef<I, O> & { access: A } & ('root' extends P ? { placement: 'root' } : unknown) &
  ([L] extends [never] ? unknown : { download: 'xlsx' }) {
  return def as never;
}

/**
 * A feature's operation-log target: declares the label once for all its endpoints, the page its
 * log rows link to (a page key, or the page and the query opening the record), and how the log
 * reads the fields its handlers record (a plain string is a field's Chinese name). Fields its
 * endpoints' schemas title (`meta({ title })`, with `choice` for codes) need no entry here.
 */
export const auditTarget = (
  type: string,
  label: string,
  page: string | AuditTargetPage | null,
  fields: Record<string, string | AuditField> = {},
): AuditTarget => ({
  type,
  label,
  page: typeof page === 'string' ? { key: page } : page,
  fields: Object.fromEntries(
    Object.entries(fields).map(([key, field]) => [key, typeof field === 'string' ? { label: field } : field]),
  ),
});

/**
 * Every feature's contract file adds its endpoints to this registry (module augmentation), so
 * the table and its types are complete without a hand-kept list:
 * `declare module '../endpoint' { interface EndpointRegistry extends HelpEndpoints {} }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each feature's declaration merging
export interface EndpointRegistry {}

/** The common answer shape. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}

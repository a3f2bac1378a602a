import { randomBytes } from 'node:crypto';
import type { UploadAccept, UploadKind } from '@appdesk/contract/constants';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { SessionUser } from '../core/sessions';
import { assertRoom, consumeAll, type Limit } from '../core/throttle';
import type { Db } from '../db/index';
import { PendingWrites, settlePending } from '../storage/pending';
import { type FileReference, isReferenced, keyOfUrl } from '../storage/references';
import type { FileStorage } from '../storage/types';
import { ApiError, fail } from './errors';
import { loadSharp, type MediaInfo, probeMedia } from './media';
import { identifyPackage, isZipFamily } from './packages';

/** Accepted types per kind, decided from the file's first bytes (never its name or header). */
const accepted: Record<UploadKind, Record<string, string>> = {
  image: { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' },
  audio: {
    'audio/mpeg': 'mp3',
    'audio/wav': 'wav',
    'audio/x-wav': 'wav',
    'audio/ogg': 'ogg',
    'audio/aac': 'aac',
    'audio/x-m4a': 'm4a',
    'audio/mp4': 'm4a',
    'audio/flac': 'flac',
    'audio/x-flac': 'flac',
  },
  // Zip containers: which package (APK, AAB, IPA) is decided from their entries (packages.ts).
  package: {
    'application/vnd.android.package-archive': 'apk',
    'application/x-android-app-bundle': 'aab',
    'application/x-ios-app': 'ipa',
  },
};

const kindName: Record<UploadAccept, string> = {
  image: '图片',
  audio: '音频',
  package: '安装包（APK、AAB、IPA）',
  any: '图片、音频或安装包',
};
const kinds: UploadKind[] = ['image', 'audio', 'package'];

export interface UploadedFile {
  key: string;
  url: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  /** What the bytes turned out to be (an `any` upload may be any of them). */
  kind: UploadKind;
  /** Its row in `files`, once recorded (before the handler runs). */
  id?: number;
  /** Size and thumbnail, or duration and codec, on endpoints that ask (`upload.media`). */
  media?: MediaInfo;
  /** On a public endpoint: the secret that lets a caller not signed in attach it (only its SHA-256 is kept). */
  claimToken?: string;
}

/** A new claim token: 32 random bytes, base64url (43 characters). */
export const newClaimToken = (): string => randomBytes(32).toString('base64url');

/** The stored objects of an upload: the file and what was made from it (a thumbnail). */
export const uploadKeys = (file: UploadedFile): string[] =>
  file.media?.kind === 'image' ? [file.key, file.media.thumbKey] : [file.key];

/** Deletes a kept upload's bytes and what was made from them (a failed or replayed call), then its pending keys. */
export async function discardUpload(deps: { storage: FileStorage; db: Db }, file: UploadedFile): Promise<void> {
  for (const key of uploadKeys(file)) await deps.storage.remove(key);
  await settlePending(deps.db, uploadKeys(file));
}

/**
 * Reads a multipart request: the file under `field` is streamed to storage and checked by its
 * bytes; the other fields are JSON values (spec 7). Returns the fields and the kept file.
 */
export async function readUpload(
  request: FastifyRequest,
  spec: { field: string; kind: UploadAccept; media?: true },
  deps: { storage: FileStorage; config: Config; db: Db },
  user: SessionUser | null,
): Promise<{ fields: Record<string, unknown>; file: UploadedFile }> {
  if (!request.isMultipart()) throw fail.badInput(`请以 multipart/form-data 上传，文件字段名为 ${spec.field}`);
  if (!hasBoundary(request.headers['content-type'])) {
    throw fail.badInput('multipart/form-data 请求头缺少合法的 boundary（1 到 70 个字符）');
  }
  // A caller out of quota is refused before a byte is written (the exact count is taken later).
  for (const limit of uploadLimits(deps.config, user, request.ip)) await assertRoom(deps.db, limit.limit, 1);
  const maxBytes = limitOf(spec.kind, deps.config);
  // Each object it writes has its key committed as pending first (storage/pending.ts).
  const storage = new PendingWrites(deps.storage, deps.db);
  const fields: Record<string, unknown> = {};
  let file: UploadedFile | undefined;
  const parts = request.parts({ limits: { fileSize: maxBytes + 1, files: 1, fields: 50, fieldSize: 64 * 1024 } });
  // Whatever the parser throws is about the body the client sent; a storage or database failure is not.
  let parserFailed = false;
  const iterator = parts[Symbol.asyncIterator]();
  const nextPart = () =>
    iterator.next().catch((error: unknown) => {
      parserFailed = true;
      throw error;
    });
  try {
    for (let step = await nextPart(); !step.done; step = await nextPart()) {
      const part = step.value;
      if (part.type === 'file') {
        if (part.fieldname !== spec.field || file) {
          part.file.resume();
          throw fail.badInput(`文件字段名应为 ${spec.field}`);
        }
        file = await keepFile(part, spec, { storage, config: deps.config });
      } else {
        fields[part.fieldname] = parseFieldValue(part.value);
      }
    }
  } catch (error) {
    if (file) await discardUpload(deps, file);
    throw uploadRefusal(error, { spec, maxBytes, parserFailed, request });
  }
  if (!file) throw fail.badInput(`缺少上传文件（字段名 ${spec.field}）`);
  return { fields, file };
}

/** A multipart content type names a boundary of 1 to 70 characters (RFC 2046); the parser would take an empty one. */
function hasBoundary(contentType: string | undefined): boolean {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2] ?? '';
  return boundary.length >= 1 && boundary.length <= 70;
}

/** Messages of the multipart parser (busboy) when the body ends early or names no usable boundary. */
const parserMessages = /multipart|terminated early|boundary|needle/i;

/**
 * What a failed read of an upload answers: the parser's limits and refusals of a malformed body
 * (a missing or empty boundary, a truncated part, no closing boundary) as the client's mistake,
 * 400/413 with a Chinese message and an info line; anything else (the storage, the database, a
 * client that went away) as it was thrown.
 */
function uploadRefusal(
  error: unknown,
  at: { spec: { field: string; kind: UploadAccept }; maxBytes: number; parserFailed: boolean; request: FastifyRequest },
): unknown {
  if (error instanceof ApiError) return error;
  const { field, kind } = at.spec;
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_FILES_LIMIT') return fail.badInput(`一次只能上传一个文件（字段名 ${field}）`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return fail.badInput('表单字段过多');
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fail.tooLarge(`${kindName[kind]}不能超过 ${formatBytes(at.maxBytes)}`);
  if (code === 'FST_PROTO_VIOLATION') return fail.badInput('表单字段名不合法');
  // A client that hung up mid-body: answered (and logged) as such by the route.
  if (at.request.raw.destroyed && !at.request.raw.complete) return error;
  const message = error instanceof Error ? error.message : '';
  // A truncated file part surfaces through the file's stream, so from the storage's write.
  const parsing = at.parserFailed || (!(error as { syscall?: string }).syscall && parserMessages.test(message));
  if (!parsing) return error;
  at.request.log.info({ reason: message.slice(0, 200) }, 'malformed multipart body refused');
  return fail.badInput(`上传的表单不完整或格式不正确（multipart/form-data，文件字段名 ${field}），请重新上传`);
}

/** The largest file an endpoint takes: its kind's limit, or for `any` the largest of them. */
const limitOf = (kind: UploadAccept, config: Config) =>
  kind === 'any' ? Math.max(...kinds.map((k) => config.limits[k])) : config.limits[kind];

/** The kind and stored extension of a detected type among the accepted ones, if accepted. */
function acceptedType(kind: UploadAccept, mime: string): { kind: UploadKind; extension: string } | undefined {
  for (const k of kind === 'any' ? kinds : [kind]) {
    const extension = accepted[k][mime];
    if (extension) return { kind: k, extension };
  }
  return undefined;
}

/** The client's file name for display only: no folders, no control characters, at most 200 characters. */
function displayName(filename: string, extension: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return (
    Array.from(base === '.' || base === '..' ? '' : base)
      .slice(0, 200)
      .join('') || `upload.${extension}`
  );
}

async function keepFile(
  part: MultipartFile,
  spec: { kind: UploadAccept; media?: true },
  deps: { storage: FileStorage; config: Config },
): Promise<UploadedFile> {
  const { storage } = deps;
  const { kind } = spec;
  const maxBytes = limitOf(kind, deps.config);
  const written = await storage.write(part.file, maxBytes);
  if (written.truncated || part.file.truncated) {
    await storage.discard(written.tempPath);
    throw fail.tooLarge(`${kindName[kind]}不能超过 ${formatBytes(maxBytes)}`);
  }
  if (written.size === 0) {
    await storage.discard(written.tempPath);
    throw fail.badInput('上传的文件是空的');
  }
  const { fileTypeFromFile } = await import('file-type'); // loaded by the first upload
  let mime = (await fileTypeFromFile(written.tempPath))?.mime;
  // A zip container is a package only when its entries say which one (never by its name).
  if (mime && isZipFamily(mime)) mime = (await identifyPackage(written.tempPath))?.mime;
  const type = mime ? acceptedType(kind, mime) : undefined;
  if (!mime || !type) {
    await storage.discard(written.tempPath);
    const names = (kind === 'any' ? kinds : [kind]).flatMap((k) => [...new Set(Object.values(accepted[k]))]);
    throw fail.unsupportedType(`只接受${kindName[kind]}文件（${names.join('、')}）`);
  }
  if (written.size > deps.config.limits[type.kind]) {
    await storage.discard(written.tempPath);
    throw fail.tooLarge(`${kindName[type.kind]}不能超过 ${formatBytes(deps.config.limits[type.kind])}`);
  }
  if (type.kind === 'image') await checkPixels(written.tempPath, deps.config.limits.imagePixels, storage);
  let media: MediaInfo | undefined;
  if (spec.media && type.kind !== 'package') {
    try {
      media = await probeMedia(written.tempPath, type.kind, { storage, maxPixels: deps.config.limits.imagePixels });
    } catch (error) {
      await storage.discard(written.tempPath);
      throw error;
    }
  }
  const key = await storage.keep(written.tempPath, type.extension);
  return {
    media,
    key,
    url: storage.url(key),
    name: displayName(part.filename ?? '', type.extension),
    mime,
    size: written.size,
    sha256: written.sha256,
    kind: type.kind,
  };
}

function parseFieldValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${Math.round(bytes / 1024 / 1024 / 1024)} GB`;
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / 1024 / 1024)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

/**
 * Refuses an image with more pixels than the limit (all frames of an animation counted), read
 * from its header by sharp without decoding it: a small PNG can claim 20,000 × 20,000 pixels and
 * take gigabytes to open. An image whose header cannot be read is refused too.
 */
async function checkPixels(tempPath: string, maxPixels: number, storage: FileStorage): Promise<void> {
  let pixels: number;
  try {
    const sharp = await loadSharp();
    const meta = await sharp(tempPath, { limitInputPixels: false }).metadata();
    pixels = (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0) * (meta.pages ?? 1);
    if (!pixels) throw new Error('no dimensions');
  } catch {
    await storage.discard(tempPath);
    throw fail.unsupportedType('无法读取图片尺寸，文件可能已损坏');
  }
  if (pixels > maxPixels) {
    await storage.discard(tempPath);
    throw fail.tooLarge(`图片像素过多：最多 ${(maxPixels / 10_000).toLocaleString('zh-CN')} 万像素`);
  }
}

const HOUR = 60 * 60 * 1000;
const KIB = 1024;

/**
 * Upload quotas (docs/security.md#quotas) of an account that is not an administrator: files and bytes per
 * hour of its own (a caller who is not signed in: of its client address), and bytes per hour of all
 * such callers together. Bytes count in KiB.
 */
function uploadLimits(
  config: Config,
  user: SessionUser | null,
  ip: string,
): { limit: Limit; amount: (size: number) => number }[] {
  if (user?.is_admin) return [];
  const q = config.quotas;
  const who = user ? `user:${user.id}` : `ip:${ip}`;
  const kib = (size: number) => Math.max(1, Math.ceil(size / KIB));
  const mb = (bytes: number) => formatBytes(bytes);
  return [
    {
      limit: {
        key: `upload:${who}`,
        max: q.uploadsPerUserPerHour,
        windowMs: HOUR,
        refusal: `上传过于频繁（每小时最多 ${q.uploadsPerUserPerHour} 个文件）`,
      },
      amount: () => 1,
    },
    {
      limit: {
        key: `upload-bytes:${who}`,
        max: Math.ceil(q.uploadBytesPerUserPerHour / KIB),
        windowMs: HOUR,
        refusal: `本小时上传量已达上限（每小时 ${mb(q.uploadBytesPerUserPerHour)}）`,
      },
      amount: kib,
    },
    {
      limit: {
        key: 'upload-bytes:all-users',
        max: Math.ceil(q.uploadBytesPerHour / KIB),
        windowMs: HOUR,
        refusal: '全站本小时的上传量已达上限',
      },
      amount: kib,
    },
  ];
}

/** Counts a kept upload against the caller's quotas, inside the call's transaction; 429 if it does not fit. */
export async function chargeUpload(
  db: Db,
  config: Config,
  user: SessionUser | null,
  ip: string,
  size: number,
): Promise<void> {
  await consumeAll(
    db,
    uploadLimits(config, user, ip).map(({ limit, amount }) => ({ limit, amount: amount(size) })),
  );
}

/**
 * Deletes replaced files that nothing refers to any more, with their `files` rows. Runs after
 * the call committed; a failure is logged, never the caller's (the file stays, harmlessly).
 */
export async function releaseFiles(
  deps: { db: Db; storage: FileStorage; fileReferences: FileReference[] },
  urls: string[],
  log: FastifyBaseLogger,
): Promise<void> {
  for (const url of new Set(urls)) {
    const key = keyOfUrl(url);
    if (!key) continue;
    try {
      if (await isReferenced(deps.db, deps.fileReferences, url)) continue;
      await deps.db.deleteFrom('files').where('key', '=', key).execute();
      await deps.storage.remove(key);
    } catch (error) {
      log.warn({ reason: (error as Error).message, key }, 'replaced file not deleted');
    }
  }
}

import type { UploadAccept, UploadKind } from '@appdesk/contract/constants';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import type { Config } from '../config';
import type { LocalStorage } from '../storage/local';
import { fail } from './errors';
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
}

/**
 * Reads a multipart request: the file under `field` is streamed to storage and checked by its
 * bytes; the other fields are JSON values (spec 7). Returns the fields and the kept file.
 */
export async function readUpload(
  request: FastifyRequest,
  spec: { field: string; kind: UploadAccept },
  deps: { storage: LocalStorage; config: Config },
): Promise<{ fields: Record<string, unknown>; file: UploadedFile }> {
  if (!request.isMultipart()) throw fail.badInput(`请以 multipart/form-data 上传，文件字段名为 ${spec.field}`);
  const maxBytes = limitOf(spec.kind, deps.config);
  const fields: Record<string, unknown> = {};
  let file: UploadedFile | undefined;
  const parts = request.parts({ limits: { fileSize: maxBytes + 1, files: 1, fields: 50, fieldSize: 64 * 1024 } });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== spec.field || file) {
          part.file.resume();
          throw fail.badInput(`文件字段名应为 ${spec.field}`);
        }
        file = await keepFile(part, spec.kind, deps);
      } else {
        fields[part.fieldname] = parseFieldValue(part.value);
      }
    }
  } catch (error) {
    if (file) await deps.storage.remove(file.key);
    const code = (error as { code?: string } | null)?.code;
    if (code === 'FST_FILES_LIMIT') throw fail.badInput(`一次只能上传一个文件（字段名 ${spec.field}）`);
    if (code === 'FST_PARTS_LIMIT') throw fail.badInput('表单字段过多');
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw fail.tooLarge(`${kindName[spec.kind]}不能超过 ${formatBytes(maxBytes)}`);
    throw error;
  }
  if (!file) throw fail.badInput(`缺少上传文件（字段名 ${spec.field}）`);
  return { fields, file };
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

async function keepFile(part: MultipartFile, kind: UploadAccept, deps: { storage: LocalStorage; config: Config }) {
  const { storage } = deps;
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
  const key = await storage.keep(written.tempPath, type.extension);
  return {
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

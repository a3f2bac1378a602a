import type { UploadKind } from '@appdesk/contract/constants';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import type { Config } from '../config';
import type { LocalStorage } from '../storage/local';
import { fail } from './errors';

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
  package: {
    'application/zip': 'apk',
    'application/vnd.android.package-archive': 'apk',
  },
};

const kindName: Record<UploadKind, string> = { image: '图片', audio: '音频', package: '安装包' };

export interface UploadedFile {
  key: string;
  url: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
}

/**
 * Reads a multipart request: the file under `field` is streamed to storage and checked by its
 * bytes; the other fields are JSON values (spec 7). Returns the fields and the kept file.
 */
export async function readUpload(
  request: FastifyRequest,
  spec: { field: string; kind: UploadKind },
  deps: { storage: LocalStorage; config: Config },
): Promise<{ fields: Record<string, unknown>; file: UploadedFile }> {
  if (!request.isMultipart()) throw fail.badInput(`请以 multipart/form-data 上传，文件字段名为 ${spec.field}`);
  const maxBytes = deps.config.limits[spec.kind];
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
        file = await keepFile(part, spec.kind, maxBytes, deps.storage);
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

async function keepFile(part: MultipartFile, kind: UploadKind, maxBytes: number, storage: LocalStorage) {
  const written = await storage.write(part.file, maxBytes);
  if (written.truncated || part.file.truncated) {
    await storage.discard(written.tempPath);
    throw fail.tooLarge(`${kindName[kind]}不能超过 ${formatBytes(maxBytes)}`);
  }
  if (written.size === 0) {
    await storage.discard(written.tempPath);
    throw fail.badInput('上传的文件是空的');
  }
  const detected = await fileTypeFromFile(written.tempPath);
  const extension = detected ? accepted[kind][detected.mime] : undefined;
  if (!detected || !extension) {
    await storage.discard(written.tempPath);
    throw fail.unsupportedType(`只接受${kindName[kind]}文件（${Object.values(accepted[kind]).join('、')}）`);
  }
  const key = await storage.keep(written.tempPath, extension);
  return {
    key,
    url: storage.url(key),
    name: part.filename.slice(0, 200) || `upload.${extension}`,
    mime: detected.mime,
    size: written.size,
    sha256: written.sha256,
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

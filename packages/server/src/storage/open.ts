import { LocalStorage } from './local';
import { parseS3Url, S3Storage } from './s3';
import type { FileStorage } from './types';

/** The configured storage: S3 when `STORAGE_URL` is `s3://…`, else the data folder's `files/`. */
export function openStorage(storageUrl: string | undefined, dataDir: string): FileStorage {
  if (!storageUrl) return new LocalStorage(dataDir);
  return new S3Storage(parseS3Url(storageUrl), dataDir);
}

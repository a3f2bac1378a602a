import { LocalStorage } from './local';
import { loadS3Sdk, parseS3Url, S3Storage } from './s3';
import type { FileStorage } from './types';

/** The configured storage: S3 when `STORAGE_URL` is `s3://…`, else the data folder's `files/`. */
export async function openStorage(storageUrl: string | undefined, dataDir: string): Promise<FileStorage> {
  if (!storageUrl) return new LocalStorage(dataDir);
  return new S3Storage(parseS3Url(storageUrl), dataDir, await loadS3Sdk());
}

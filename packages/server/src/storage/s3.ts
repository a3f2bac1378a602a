import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { spool } from './spool';
import { type FileStorage, newKey, type WrittenFile } from './types';

/** `STORAGE_URL=s3://bucket[/prefix]?endpoint=http://host:port&region=…` read into the driver's settings. */
export interface S3Settings {
  bucket: string;
  /** Keys are stored under this prefix (no leading or trailing slash), empty for the bucket's root. */
  prefix: string;
  endpoint: string | undefined;
  region: string;
  /** Path-style addressing (`endpoint/bucket/key`), which most self-hosted stores need; default on with an endpoint. */
  forcePathStyle: boolean;
}

export function parseS3Url(raw: string): S3Settings {
  const url = new URL(raw);
  if (url.protocol !== 's3:' || !url.hostname)
    throw new Error(`STORAGE_URL must look like s3://bucket?endpoint=…, got "${raw}"`);
  const endpoint = url.searchParams.get('endpoint') || undefined;
  const pathStyle = url.searchParams.get('forcePathStyle');
  return {
    bucket: url.hostname,
    prefix: url.pathname.replace(/^\/+|\/+$/g, ''),
    endpoint,
    region: url.searchParams.get('region') || process.env.AWS_REGION || 'us-east-1',
    forcePathStyle: pathStyle === null ? Boolean(endpoint) : pathStyle === 'true',
  };
}

const PART_BYTES = 8 * 1024 * 1024;

/**
 * S3-compatible object storage through the AWS SDK. Credentials come from the environment
 * (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, or the SDK's other usual sources), never from
 * STORAGE_URL. Uploads are spooled to a local temporary file (hashed and type-checked there, as
 * with the local folder), then streamed from it with a multipart upload of 8 MiB parts, two at a
 * time: a file is never held in memory.
 */
/** The AWS SDK's parts this driver uses. */
export type S3Sdk = typeof import('@aws-sdk/client-s3') & Pick<typeof import('@aws-sdk/lib-storage'), 'Upload'>;

/**
 * The SDK, loaded when S3 is configured: it holds about 25 MB of a process's memory, which a
 * server on its data folder's `files/` never needs.
 */
export async function loadS3Sdk(): Promise<S3Sdk> {
  const [client, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return { ...client, Upload: storage.Upload };
}

export class S3Storage implements FileStorage {
  readonly driver = 's3' as const;
  readonly client: S3Client;
  private readonly tmp: string;

  constructor(
    readonly settings: S3Settings,
    dataDir: string,
    private readonly sdk: S3Sdk,
  ) {
    this.tmp = path.join(dataDir, 'tmp');
    this.client = new sdk.S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
    });
  }

  private objectKey(key: string): string {
    return this.settings.prefix ? `${this.settings.prefix}/${key}` : key;
  }

  /** Makes the spool folder; creates the bucket when it does not exist yet. */
  async init(): Promise<void> {
    await mkdir(this.tmp, { recursive: true });
    try {
      await this.check();
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status !== 404) throw error;
      await this.client.send(new this.sdk.CreateBucketCommand({ Bucket: this.settings.bucket }));
    }
  }

  async check(): Promise<void> {
    await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.settings.bucket }));
  }

  write(stream: Readable, maxBytes: number): Promise<WrittenFile> {
    return spool(this.tmp, stream, maxBytes);
  }

  async keep(tempPath: string, extension: string, chosen?: string): Promise<string> {
    const key = chosen ?? newKey(extension, randomBytes(12).toString('base64url'));
    try {
      await new this.sdk.Upload({
        client: this.client,
        params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: createReadStream(tempPath) },
        partSize: PART_BYTES,
        queueSize: 2,
        // A failed multipart upload is aborted, so no parts are left behind.
        leavePartsOnError: false,
      }).done();
    } finally {
      await rm(tempPath, { force: true });
    }
    return key;
  }

  async put(bytes: Buffer, extension: string, chosen?: string): Promise<string> {
    const key = chosen ?? newKey(extension, randomBytes(12).toString('base64url'));
    await this.client.send(
      new this.sdk.PutObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key), Body: bytes }),
    );
    return key;
  }

  async discard(tempPath: string): Promise<void> {
    await rm(tempPath, { force: true });
  }

  async remove(key: string): Promise<void> {
    await this.client.send(
      new this.sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    );
  }

  url(key: string): string {
    return `/files/${key}`;
  }

  async withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T> {
    const found = await this.read(key);
    if (!found) throw Object.assign(new Error(`stored file ${key} not found`), { code: 'ENOENT' });
    const copy = await spool(this.tmp, found.body, Number.MAX_SAFE_INTEGER);
    try {
      return await work(copy.tempPath);
    } finally {
      await rm(copy.tempPath, { force: true });
    }
  }

  async read(key: string): Promise<{ body: Readable; size: number | undefined } | undefined> {
    try {
      const answer = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      return { body: answer.Body as Readable, size: answer.ContentLength };
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async *keys(): AsyncIterable<string> {
    const prefix = this.settings.prefix ? `${this.settings.prefix}/` : undefined;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield prefix ? object.Key.slice(prefix.length) : object.Key;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}

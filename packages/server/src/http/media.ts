import type { parseFile } from 'music-metadata';
import type Sharp from 'sharp';
import type { FileStorage } from '../storage/types';
import { fail } from './errors';

/**
 * What the media libraries need from an accepted upload, read on the server before the call's
 * transaction: an image's size and a WebP thumbnail, an audio file's duration, codec and sample rate.
 * Endpoints ask for it with `upload.media` in their contract entry.
 */
export type MediaInfo =
  | { kind: 'image'; width: number; height: number; thumbKey: string }
  | { kind: 'audio'; durationMs: number; codec: string; sampleRate: number | null };

/** Longest side of a thumbnail, in pixels. */
export const THUMB_SIZE = 480;

/**
 * sharp (libvips), loaded by the first image upload: about 30 MB of a process's memory that a
 * server nobody uploads images to never holds. Decoded images are large: libvips keeps no cache
 * of them, and one image is worked on at a time.
 */
let sharpLoaded: Promise<typeof Sharp> | undefined;
export function loadSharp() {
  sharpLoaded ??= import('sharp').then((module) => {
    const sharp = module.default as typeof Sharp;
    sharp.cache(false);
    return sharp;
  });
  return sharpLoaded;
}
let imageQueue: Promise<unknown> = Promise.resolve();
function oneImageAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = imageQueue.then(work, work);
  imageQueue = run.catch(() => undefined);
  return run;
}

/** Reads the media details of a temporary upload; refuses (415) a file that cannot be read whole. */
export async function probeMedia(
  tempPath: string,
  kind: 'image' | 'audio',
  deps: { storage: FileStorage; maxPixels: number },
): Promise<MediaInfo> {
  return kind === 'image' ? probeImage(tempPath, deps) : probeAudio(tempPath);
}

function probeImage(tempPath: string, deps: { storage: FileStorage; maxPixels: number }): Promise<MediaInfo> {
  return oneImageAtATime(async () => {
    const sharp = await loadSharp();
    // The pixel limit is checked from the header before this (uploads.ts); limitInputPixels is the
    // second guard, and a truncated file fails instead of being padded with grey.
    const open = () => sharp(tempPath, { limitInputPixels: deps.maxPixels, failOn: 'truncated', autoOrient: true });
    let thumb: Buffer;
    let width: number;
    let height: number;
    try {
      const meta = await open().metadata();
      width = meta.autoOrient?.width ?? meta.width ?? 0;
      height = meta.autoOrient?.height ?? meta.pageHeight ?? meta.height ?? 0;
      thumb = await open()
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
    } catch {
      throw fail.unsupportedType('图片无法解码（文件不完整或已损坏），请重新导出后再上传');
    }
    if (!width || !height) throw fail.unsupportedType('无法读取图片尺寸，文件可能已损坏');
    return { kind: 'image', width, height, thumbKey: await deps.storage.put(thumb, 'webp') };
  });
}

async function probeAudio(tempPath: string): Promise<MediaInfo> {
  let format: Awaited<ReturnType<typeof parseFile>>['format'];
  try {
    const { parseFile } = await import('music-metadata'); // loaded by the first sound upload
    ({ format } = await parseFile(tempPath, { duration: true, skipCovers: true }));
  } catch {
    throw fail.unsupportedType('音频无法解析（文件不完整或已损坏）');
  }
  if (!format.duration || !Number.isFinite(format.duration)) {
    throw fail.unsupportedType('无法读取音频时长，文件可能已损坏');
  }
  return {
    kind: 'audio',
    durationMs: Math.round(format.duration * 1000),
    codec: format.codec ?? format.container ?? '',
    sampleRate: format.sampleRate ?? null,
  };
}

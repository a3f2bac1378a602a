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

/** WAV encodings (their format codes) in the words an operator reads. */
const waveCodes: Record<number, string> = {
  1: 'PCM',
  2: 'ADPCM',
  3: 'IEEE 浮点',
  6: 'A 律',
  7: 'μ 律',
  17: 'IMA ADPCM',
  49: 'GSM 6.10',
  80: 'MPEG',
  85: 'MP3',
};
/** music-metadata's names of WAV encodings, in the same words. */
const waveNames: Record<string, string> = {
  IEEE_FLOAT: 'IEEE 浮点',
  ALAW: 'A 律',
  MULAW: 'μ 律',
  DVI_ADPCM: 'IMA ADPCM',
  GSM610: 'GSM 6.10',
  MPEGLAYER3: 'MP3',
};

/**
 * An audio codec in words. A WAV's format is read from its fmt chunk, as WAVE_FORMAT_EXTENSIBLE
 * (0xFFFE, how many editors save plain PCM) names its encoding in the first two bytes of its
 * sub-format GUID; music-metadata reports that as "non-PCM (65534)". `head` is the file's start.
 */
export function audioCodecName(codec: string, head?: Uint8Array): string {
  const tag = /^non-PCM \((\d+)\)$/.exec(codec);
  if (!tag) return waveNames[codec] ?? codec;
  const code = Number(tag[1]) === 0xfffe && head ? extensibleSubFormat(head) : Number(tag[1]);
  return (code !== undefined && waveCodes[code]) || (code === 0xfffe ? 'WAV 扩展格式' : `WAV 格式 ${code}`);
}

/** The sub-format code of a RIFF WAVE's extensible fmt chunk, walking the chunks in `head`. */
function extensibleSubFormat(head: Uint8Array): number | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const size = bytes.readUInt32LE(at + 4);
    if (bytes.toString('ascii', at, at + 4) === 'fmt ') {
      return size >= 40 && at + 8 + 26 <= bytes.length ? bytes.readUInt16LE(at + 8 + 24) : undefined;
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** The first 64 KiB of a file: a WAV's fmt chunk comes before its samples. */
async function headOf(tempPath: string): Promise<Uint8Array> {
  const { open } = await import('node:fs/promises');
  const file = await open(tempPath, 'r');
  try {
    const buffer = Buffer.alloc(65_536);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
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
  const codec = format.codec ?? format.container ?? '';
  return {
    kind: 'audio',
    durationMs: Math.round(format.duration * 1000),
    codec: audioCodecName(codec, codec.startsWith('non-PCM') ? await headOf(tempPath) : undefined),
    sampleRate: format.sampleRate ?? null,
  };
}

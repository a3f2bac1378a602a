import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Media for the media-library tests, made in the test: images of a given size and format,
 * broken ones, a decompression bomb, and short sounds.
 */

/** An image of noise (so it does not compress to nothing), `width` × `height`, in `format`. */
export async function makeImage(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png',
): Promise<Uint8Array> {
  const pixels = randomBytes(width * height * 3);
  return new Uint8Array(
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      [format]()
      .toBuffer(),
  );
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real decompression bomb: a valid grey PNG of `side` × `side` pixels (20,000² = 400 million,
 * 400 MB once decoded) whose zeros compress to a few hundred KB.
 */
export function pngBomb(side = 20_000): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // 8-bit grey, no interlace
  const rows = Buffer.alloc((side + 1) * side);
  const png = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return new Uint8Array(png);
}

/** A PNG signature followed by an HTML page: a file that claims to be an image. */
export const pngWithHtml = new Uint8Array(
  Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>'),
  ]),
);

export const svg = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)"><rect width="10" height="10"/></svg>',
);

/** A mono 16-bit PCM WAV of `seconds` of a quiet tone at `rate` Hz; `seed` changes its bytes (and sha256). */
export function makeWav(seconds: number, rate = 8000, seed = 1): Uint8Array {
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    wav.writeInt16LE(Math.round(Math.sin((i * (440 + seed)) / rate) * 2000), 44 + i * 2);
  }
  return new Uint8Array(wav);
}

/**
 * A mono 16-bit WAV of `seconds` written as WAVE_FORMAT_EXTENSIBLE (format tag 0xFFFE, as many
 * editors save even plain PCM), whose sub-format GUID names the encoding: 1 PCM, 3 IEEE float.
 */
export function makeExtensibleWav(seconds: number, rate = 8000, seed = 1, subFormat = 1): Uint8Array {
  const plain = Buffer.from(makeWav(seconds, rate, seed));
  const data = plain.subarray(36); // 'data', size, samples
  const fmt = Buffer.alloc(8 + 40);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(40, 4);
  plain.copy(fmt, 8, 20, 36); // channels, rate, byte rate, block align, bits as the plain file
  fmt.writeUInt16LE(0xfffe, 8);
  fmt.writeUInt16LE(22, 24); // cbSize
  fmt.writeUInt16LE(16, 26); // valid bits
  fmt.writeUInt32LE(0x4, 28); // speaker: front centre
  fmt.writeUInt16LE(subFormat, 32);
  Buffer.from('000000001000800000aa00389b71', 'hex').copy(fmt, 34);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(4 + fmt.length + data.length, 4);
  head.write('WAVE', 8, 'ascii');
  return new Uint8Array(Buffer.concat([head, fmt, data]));
}

/** An MP3 of `seconds` (MPEG-1 Layer III frames, 128 kbit/s, 44.1 kHz); `seed` changes its bytes. */
export function makeMp3(seconds: number, seed = 1): Uint8Array {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x44]);
  for (let i = 4; i < frame.length; i++) frame[i] = (i * 7 + seed) & 0xff;
  const count = Math.round((seconds * 44_100) / 1152);
  return new Uint8Array(Buffer.concat(Array.from({ length: count }, () => frame)));
}

/** Values as a person reads them in Chinese: durations, sizes, media types, stored files. */
import { packageTypes, recordSources } from '../constants';

/** Bytes as operators read them: 1.2 MB. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

const durationUnits = [
  ['天', 86_400_000],
  ['小时', 3_600_000],
  ['分钟', 60_000],
  ['秒', 1000],
] as const;

/**
 * Milliseconds as a duration in its two largest units: 2678399726 → '30 天 23 小时',
 * 90_000 → '1 分钟 30 秒', 300 → '0.3 秒'.
 */
export function durationInWords(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const sign = ms < 0 ? '负 ' : '';
  let rest = Math.abs(Math.round(ms));
  if (rest < 1000) return `${sign}${Math.round(rest / 100) / 10} 秒`;
  const parts: string[] = [];
  for (const [unit, size] of durationUnits) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length) parts.push(`${count} ${unit}`);
    if (parts.length === 2) break;
  }
  return sign + parts.filter((p) => !p.startsWith('0 ')).join(' ');
}

const mediaWords: Record<string, string> = { image: '图片', audio: '音频', video: '视频', text: '文本' };
const subtypeNames: Record<string, string> = { jpeg: 'JPEG', 'svg+xml': 'SVG', mpeg: 'MP3', 'x-wav': 'WAV' };

/** A media type in words: image/png → 'PNG 图片', an APK's type → its package label. */
export function mimeWords(mime: string): string {
  const known = packageTypes.find((p) => p.mime === mime);
  if (known) return known.label;
  const [type, subtype = ''] = mime.toLowerCase().split('/');
  const name = subtypeNames[subtype] ?? subtype.replace(/^x-/, '').toUpperCase();
  return mediaWords[type] ? `${name} ${mediaWords[type]}` : `${name} 文件`;
}

const extensionTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  apk: 'application/vnd.android.package-archive',
  aab: 'application/x-android-app-bundle',
  ipa: 'application/x-ios-app',
};

/**
 * A stored file's URL (`/files/2026-11/<random>.png`) in words: '2026-11 上传的 PNG 图片'. Its
 * random name means nothing to a reader; the month and the kind tell two versions apart.
 */
export function fileUrlWords(url: string): string {
  const match = /\/(\d{4}-\d{2})\/[^/]*?\.([a-z0-9]+)$/i.exec(url);
  if (!match) return '已上传的文件';
  const type = extensionTypes[match[2].toLowerCase()];
  return `${match[1]} 上传的${type ? mimeWords(type) : '文件'}`;
}

/** The record a coin or VIP change came from, in words: 'order', 'P2026…' → '订单 P2026…'. */
export function sourceText(refType: string | null, refId: string | null): string {
  if (!refType) return '';
  const label = recordSources.find((s) => s.value === refType)?.label ?? '关联记录';
  if (!refId) return label;
  return /^\d+$/.test(refId) ? `${label} #${refId}` : `${label} ${refId}`;
}

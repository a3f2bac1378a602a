/**
 * Stable shares of devices (灰度): a device's bucket in [0, 10000) comes from a hash of its id
 * and a salt (a release, a config key), so the same device always lands in the same bucket, and a
 * share of p % is the buckets below p × 100: raising p never takes it away from a device that had it.
 * Zod-free and dependency-free: the server decides with it, and an app may compute the same.
 */

const encoder = new TextEncoder();
/** Reused between calls (the update check hashes on every call); grown when a text needs more. */
let scratch = new Uint8Array(256);

/** FNV-1a over the UTF-8 bytes, then murmur3's finaliser so nearby ids spread evenly. */
export function hash32(text: string): number {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  const { written } = encoder.encodeInto(text, scratch);
  let h = 0x811c9dc5;
  for (let i = 0; i < written; i++) {
    h ^= scratch[i];
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The device's bucket for this salt, 0 to 9999. */
export const rolloutBucket = (deviceId: string, salt: string): number => hash32(`${salt}\u0000${deviceId}`) % 10_000;

/** Whether a device is inside a share of `percent` (1–100) for this salt. */
export const inRollout = (deviceId: string, salt: string, percent: number): boolean =>
  percent >= 100 || rolloutBucket(deviceId, salt) < percent * 100;

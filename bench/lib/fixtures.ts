import { createHash } from 'node:crypto';

/** What the web client sends for a password: lower-case hex SHA-256 of its UTF-8 bytes. */
export function sha256hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The administrator every bench run creates through /api/allocation/init. */
export const admin = {
  phone: '19900000001',
  password: 'AppDesk-bench-admin-1',
  title: 'AppDesk 压测站点',
  slogen: '只为测量而生',
} as const;

/** Every seeded user shares this password (argon2 is computed once for all rows). */
export const seededPassword = 'AppDesk-bench-user-1';

// Mobile prefixes of the three carriers; 199 is left out so the admin's phone never collides.
const prefixes = [130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 150, 151, 152, 153, 155, 156, 157, 158, 159]
  .concat([180, 181, 182, 183, 184, 185, 186, 187, 188, 189])
  .map(String);

/** The phone of seeded user `id`: unique for every id below 2.9 billion, valid for the contract's regex. */
export function seededPhone(id: number): string {
  const prefix = prefixes[id % prefixes.length];
  // Multiplying by a constant coprime to 10 is a bijection modulo 10^8: unique numbers whose
  // digits look random, so substring searches hit as many phones as on real data.
  const serial = BigInt(Math.floor(id / prefixes.length));
  return prefix + String((serial * 48_271_391n) % 100_000_000n).padStart(8, '0');
}

/** Small deterministic PRNG (mulberry32): the same seed gives the same data set. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

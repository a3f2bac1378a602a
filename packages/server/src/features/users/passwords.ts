import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id over the SHA-256 digest the client sends. OWASP's minimum for argon2id is
 * m = 19 MiB, t = 2, p = 1; we use those, which keeps sign-in fast enough on two cores.
 */
const params = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(digest: string): Promise<string> {
  return hash(digest, params);
}

export async function verifyPassword(stored: string, digest: string): Promise<boolean> {
  try {
    return await verify(stored, digest);
  } catch {
    return false;
  }
}

/** A hash of nothing anyone knows, verified against for unknown phones so both cases take as long. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('0'.repeat(64) + String(Math.random()));
  return decoy;
}

import { createHash, randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id over the SHA-256 digest the client sends. OWASP's minimum for argon2id is
 * m = 19 MiB, t = 2, p = 1; we use those, which keeps sign-in fast enough on two cores.
 */
const params = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * At most one argon2 computation per core: more only queue inside the thread pool while each
 * holds its 19 MiB, raising memory without raising throughput (and leaving no thread free for
 * file work).
 */
const slots = Math.max(1, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  // A finishing computation hands its slot straight to the next waiter.
  if (running < slots) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** A password people can type from a printed list: no 0/O or 1/l look-alikes (10 characters, a letter and a digit at least). */
export function randomPassword(): string {
  const letters = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = letters + digits;
  const chars = [letters[randomInt(letters.length)], digits[randomInt(digits.length)]];
  while (chars.length < 10) chars.push(all[randomInt(all.length)]);
  return chars.sort(() => randomInt(3) - 1).join('');
}

export function hashPassword(digest: string): Promise<string> {
  return limited(() => hash(digest, params));
}

/**
 * A password someone else chooses for an account (生成账号, 重置密码, a new operator, the command
 * line): random, shown once, stored as the client would send it (argon2id of its SHA-256). Hash it
 * before a transaction: argon2 takes its time and a write lock should not wait for it.
 */
export async function initialPassword(): Promise<{ password: string; hash: string }> {
  const password = randomPassword();
  return { password, hash: await hashPassword(createHash('sha256').update(password, 'utf8').digest('hex')) };
}

/** How many password checks this process has run (tests prove throttling stops guesses before the check). */
export const passwordChecks = { count: 0 };

export async function verifyPassword(stored: string, digest: string): Promise<boolean> {
  passwordChecks.count += 1;
  try {
    return await limited(() => verify(stored, digest));
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

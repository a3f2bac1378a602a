import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Settings that are secrets (a service account's private key, a payment API key) are kept
 * encrypted with a key only the operator holds (`APPDESK_SECRETS_KEY`, never in the database or a
 * backup): AES-256-GCM, a fresh nonce per value. The stored text names its key by a short
 * fingerprint, so a rotation can read values under the previous key (`APPDESK_SECRETS_KEY_PREVIOUS`)
 * while `rotate-secrets` writes them again under the new one (docs/apps.md#secrets).
 */
export interface SecretKeys {
  /** Encrypts every new value. */
  current: Buffer;
  /** Still read (keys being rotated out). */
  previous: Buffer[];
}

const FORMAT = 'v1';

/** A key given as 64 hex digits or base64 of 32 bytes. */
export function parseSecretKey(raw: string, name: string): Buffer {
  const value = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) {
    throw new Error(`${name} must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32 makes one)`);
  }
  return key;
}

/** `APPDESK_SECRETS_KEY` and `APPDESK_SECRETS_KEY_PREVIOUS` (comma-separated); undefined without the first. */
export function secretKeysFromEnv(env: NodeJS.ProcessEnv = process.env): SecretKeys | undefined {
  const current = env.APPDESK_SECRETS_KEY?.trim();
  if (!current) return undefined;
  const previous = (env.APPDESK_SECRETS_KEY_PREVIOUS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => parseSecretKey(k, 'APPDESK_SECRETS_KEY_PREVIOUS'));
  return { current: parseSecretKey(current, 'APPDESK_SECRETS_KEY'), previous };
}

const fingerprint = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** `v1:<key fingerprint>:<nonce>:<tag>:<ciphertext>`, base64 parts. The context binds a value to its place. */
export function sealSecret(keys: SecretKeys, plain: string, context: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current, nonce);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [FORMAT, fingerprint(keys.current), nonce, cipher.getAuthTag(), body]
    .map((part) => (Buffer.isBuffer(part) ? part.toString('base64') : part))
    .join(':');
}

/** Whether the stored value is under the current key (rotation leaves none that is not). */
export function sealedUnderCurrent(keys: SecretKeys, sealed: string): boolean {
  return sealed.split(':')[1] === fingerprint(keys.current);
}

/** The plain value; throws when no known key sealed it or it was altered or moved to another place. */
export function openSecret(keys: SecretKeys, sealed: string, context: string): string {
  const [format, keyId, nonce, tag, body] = sealed.split(':');
  if (format !== FORMAT || !nonce || !tag || body === undefined) throw new Error('not a sealed secret');
  const key = [keys.current, ...keys.previous].find((k) => fingerprint(k) === keyId);
  if (!key) throw new Error(`sealed under key ${keyId}, which is neither APPDESK_SECRETS_KEY nor a previous key`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Passwords travel as the lower-case hex SHA-256 of their UTF-8 bytes (docs/architecture.md#identity). */
export const hashPassword = (password: string): string => bytesToHex(sha256(utf8ToBytes(password)));

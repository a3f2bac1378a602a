import path from 'node:path';
import Database from 'better-sqlite3';
import { callOk } from './api';
import { seededPassword, sha256hex } from './fixtures';

/** Nicknames of seeded users, for the short searches. */
export function seededNicknames(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, 'appdesk.sqlite'), { readonly: true });
  try {
    const rows = db
      .prepare(`select nickname from users where length(nickname) >= 2 order by random() limit 1000`)
      .all() as { nickname: string }[];
    return rows.map((r) => r.nickname);
  } finally {
    db.close();
  }
}

/** Seeded accounts that can sign in (status normal), spread over the table. */
export function loginPhones(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, 'appdesk.sqlite'), { readonly: true });
  try {
    const rows = db
      .prepare(`select phone from users where status = 'normal' and is_admin = 0 order by random() limit 1000`)
      .all() as { phone: string }[];
    return rows.map((r) => r.phone);
  } finally {
    db.close();
  }
}

/** The sizes of a data set seeded earlier, as the report states them. */
export function seededSizes(dataDir: string) {
  const db = new Database(path.join(dataDir, 'appdesk.sqlite'), { readonly: true });
  try {
    const count = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return {
      users: count('users'),
      coinRecords: count('coin_records'),
      messages: count('messages'),
      auditLog: count('audit_log'),
    };
  } finally {
    db.close();
  }
}

/** Signs seeded users in (argon2 makes this about 25 ms each), for scenarios that act as app users. */
export async function signInUsers(base: string, phones: string[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const phone of phones) {
    const { token } = await callOk(base, '/api/users/login', {
      phone,
      password: sha256hex(seededPassword),
    });
    tokens.push(token);
  }
  return tokens;
}

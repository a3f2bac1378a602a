import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { channels, DEFAULT_APP } from '@appdesk/contract/constants';
import Database from 'better-sqlite3';
import { hashPassword } from '../../packages/server/src/core/passwords';
import { registerSearchFunctions } from '../../packages/server/src/db/grams.mjs';
import { migrateToLatest, openDatabase } from '../../packages/server/src/db/index';
import { appOfId, hasColumn, registerSecondApp, SECOND_APP, SECOND_APP_SHARE } from './apps';
import { rng, seededPassword, seededPhone, sha256hex } from './fixtures';
import { ADJECTIVES, AUDIT_ACTIONS, BODIES, GIVEN, NOUNS, SURNAMES, TITLES } from './seed-words';

export interface SeedOptions {
  /** Folder holding appdesk.sqlite (created and migrated when missing). */
  dataDir: string;
  users: number;
  coinRecords: number;
  messages: number;
  /** Operation-log rows, written by a handful of the seeded users acting as operators. */
  auditLog: number;
  /** PRNG seed: the same seed and sizes give the same rows. */
  seed?: number;
  log?: (line: string) => void;
}

export interface PhaseReport {
  phase: string;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

export interface SeedReport {
  file: string;
  phases: PhaseReport[];
  totalSeconds: number;
  /** Ids of the users this run added (none when users = 0). */
  userIds: { first: number; last: number } | null;
  /** Row counts of the seeded tables after the run. */
  totals: Record<string, number>;
}

export const seedDefaults = { users: 10_000, coinRecords: 50_000, messages: 1_000, auditLog: 10_000 } as const;

const DAY = 24 * 60 * 60 * 1000;
const TWO_YEARS = 2 * 365 * DAY;
/** Rows per transaction: big enough to amortise the commit, small enough to keep the WAL modest. */
const CHUNK = 50_000;

const REASONS = ['register', 'order', 'iap', 'exchange', 'review_reward', 'selfapp', 'admin'] as const;
const REF_TYPES: Record<string, string | null> = {
  register: null,
  order: 'order',
  iap: 'iap_record',
  exchange: 'exchange_record',
  review_reward: 'review_reward',
  selfapp: 'selfapp_record',
  admin: null,
};
const EARNING = [1, 2, 4, 5, 6]; // indexes into REASONS that add coins
const R_REGISTER = 0;
const R_EXCHANGE = 3;
const R_ADMIN = 6;

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];

function nickname(r: () => number): string {
  const style = r();
  if (style < 0.45) return pick(r, SURNAMES) + pick(r, GIVEN) + (r() < 0.6 ? pick(r, GIVEN) : '');
  if (style < 0.85) return pick(r, ADJECTIVES) + pick(r, NOUNS) + (r() < 0.3 ? String(Math.floor(r() * 1000)) : '');
  return `用户${String(Math.floor(r() * 1e8)).padStart(8, '0')}`;
}

/** Reusable buffers for one user's ledger. */
interface Ledger {
  delta: Int32Array;
  balance: Int32Array;
  reason: Uint8Array;
  time: Float64Array;
}

function ledgerBuffers(size: number): Ledger {
  return {
    delta: new Int32Array(size),
    balance: new Int32Array(size),
    reason: new Uint8Array(size),
    time: new Float64Array(size),
  };
}

/**
 * The coin history of user `id`: `count` entries from sign-up to `now`, never below zero. It is a
 * pure function of (seed, id), so the users pass can compute the final balance and the ledger
 * pass can replay the same entries. Returns the final balance (what users.coins must hold).
 */
function simulateLedger(seed: number, id: number, count: number, createdAt: number, now: number, out?: Ledger): number {
  const r = rng(seed ^ Math.imul(id, 0x9e3779b1));
  const span = Math.max(1, now - createdAt);
  let balance = 0;
  for (let j = 0; j < count; j++) {
    let reason: number;
    let delta: number;
    const roll = r();
    if (j === 0) {
      reason = R_REGISTER;
      delta = 10 * (1 + Math.floor(r() * 10));
    } else if (roll < 0.3 && balance > 0) {
      reason = R_EXCHANGE;
      delta = -Math.min(balance, 10 * (1 + Math.floor(r() * 30)));
    } else if (roll < 0.34 && balance > 0) {
      reason = R_ADMIN;
      delta = -Math.min(balance, 10 * (1 + Math.floor(r() * 5)));
    } else {
      reason = EARNING[Math.floor(r() * EARNING.length)];
      delta = 10 * (1 + Math.floor(r() * 50));
    }
    balance += delta;
    const when = createdAt + Math.floor((span * (j + r())) / count); // drawn always: both passes see one sequence
    if (out) {
      out.delta[j] = delta;
      out.balance[j] = balance;
      out.reason[j] = reason;
      out.time[j] = when;
    }
  }
  return balance;
}

/**
 * Adds `users` users (with their coin ledgers) and `messages` messages to the SQLite database in
 * dataDir, creating and migrating it first when needed. Rows are appended: running it twice
 * gives twice the users. Insert-only triggers of the search indexes (FTS5 tables, phone suffixes), and the secondary
 * indexes of tables that start empty, are dropped during the load and rebuilt at the end.
 */
export async function seed(options: SeedOptions): Promise<SeedReport> {
  const log = options.log ?? ((line: string) => console.log(line));
  const seedValue = options.seed ?? 20_240_601;
  const started = performance.now();
  const phases: PhaseReport[] = [];
  const phase = (name: string, rows: number, since: number) => {
    const seconds = (performance.now() - since) / 1000;
    const report = { phase: name, rows, seconds, rowsPerSecond: rows / Math.max(seconds, 1e-6) };
    phases.push(report);
    log(
      `  ${name.padEnd(16)} ${rows.toLocaleString('en-US').padStart(11)} rows  ${seconds.toFixed(2).padStart(7)} s  ${Math.round(report.rowsPerSecond).toLocaleString('en-US').padStart(9)} rows/s`,
    );
  };

  // 1. Schema: exactly the server's migrations.
  const handle = openDatabase({ dataDir: options.dataDir });
  try {
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }

  // 2. One argon2 hash for every seeded row (the server would hash each sign-up).
  let since = performance.now();
  const passwordHash = await hashPassword(sha256hex(seededPassword));
  log(`  argon2id hash once: ${(performance.now() - since).toFixed(0)} ms`);

  const file = path.join(options.dataDir, 'appdesk.sqlite');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = OFF'); // a seed that dies half-way is simply rerun
  db.pragma('cache_size = -262144'); // 256 MiB
  db.pragma('temp_store = MEMORY');
  // The search indexes' triggers call these, as the server's connections do.
  registerSearchFunctions(db);
  // Two apps' data (issue 29): with the second app registered, users and app-scoped rows are split.
  const twoApps = registerSecondApp(db);
  const appOf = (id: number) => (twoApps ? appOfId(id) : DEFAULT_APP);
  if (twoApps) log(`  apps: ${DEFAULT_APP} and ${SECOND_APP.code} (${SECOND_APP_SHARE * 100} % of app-scoped rows)`);

  const count = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  const maxId = (table: string) =>
    (db.prepare(`select coalesce(max(id), 0) as m from ${table}`).get() as { m: number }).m;
  const inTx = <A extends unknown[]>(fn: (...args: A) => void) => db.transaction(fn);

  // 3. Make room for a fast load: FTS insert triggers, and secondary indexes of empty tables.
  const usersWereEmpty = count('users') === 0;
  const droppedTriggers = db
    .prepare(
      `select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'users'
         and (sql like '%users_nickname_search%' or sql like '%users_grams%' or sql like '%digit_suffixes%')
         and sql like '%after insert%'`,
    )
    .all() as { name: string; sql: string }[];
  const droppedIndexes: { name: string; sql: string }[] = [];
  for (const table of ['users', 'coin_records', 'messages', 'message_reads', 'audit_log']) {
    const rowsToAdd = {
      users: options.users,
      coin_records: options.coinRecords,
      messages: options.messages,
      audit_log: options.auditLog,
    }[table];
    if (count(table) > 0 || rowsToAdd === 0) continue;
    droppedIndexes.push(
      ...(db
        .prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`)
        .all(table) as { name: string; sql: string }[]),
    );
  }
  for (const t of droppedTriggers) db.exec(`drop trigger "${t.name}"`);
  for (const i of droppedIndexes) db.exec(`drop index "${i.name}"`);

  const now = Date.now();
  const n = options.users;
  const firstId = maxId('users') + 1;
  const lastId = firstId + n - 1;
  const userIds = n > 0 ? { first: firstId, last: lastId } : null;
  try {
    // 4. Users. Record counts are drawn first so each user's coins can equal its ledger's sum.
    since = performance.now();
    const r = rng(seedValue ^ firstId);
    const perUser = new Uint32Array(n);
    let coinRecords = options.coinRecords;
    if (coinRecords > 0 && n === 0) {
      log('  coin_records skipped: a ledger needs users to belong to (pass --users)');
      coinRecords = 0;
    }
    // Older users (lower ids) tend to have longer histories.
    for (let j = 0; j < coinRecords; j++) perUser[Math.floor(r() ** 1.5 * n)]++;
    const createdAt = (i: number) => now - TWO_YEARS + Math.floor(((i + 0.5) / Math.max(n, 1)) * (TWO_YEARS - DAY));

    const insertUser = db.prepare(
      `insert into users (id, phone, password_hash, nickname, avatar, email, email_verified, is_admin, status, coins,
         vip_expires_at, app, channel, last_login_at, last_active_at, created_at, updated_at)
       values (?, ?, ?, ?, null, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const userChunk = inTx((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const id = firstId + i;
        const created = createdAt(i);
        const coins = perUser[i] > 0 ? simulateLedger(seedValue, id, perUser[i], created, now) : 0;
        const hasEmail = r() < 0.3;
        const lastLogin = r() < 0.75 ? created + Math.floor(r() * (now - created)) : null;
        const lastActive = lastLogin === null ? null : lastLogin + Math.floor(r() * Math.min(7 * DAY, now - lastLogin));
        const vip = r() < 0.08 ? created + Math.floor(r() * (now - created + 365 * DAY)) : null;
        insertUser.run(
          id,
          seededPhone(id),
          passwordHash,
          nickname(r),
          hasEmail ? `u${id}@example.com` : null,
          hasEmail && r() < 0.5 ? 1 : 0,
          r() < 0.01 ? 'blocked' : 'normal',
          coins,
          vip,
          appOf(id),
          pick(r, channels).value,
          lastLogin,
          lastActive,
          created,
          Math.max(created, lastActive ?? created),
        );
      }
    });
    for (let from = 0; from < n; from += CHUNK) userChunk(from, Math.min(n, from + CHUNK));
    phase('users', n, since);

    // 5. The coin ledger, replayed per user in id order.
    since = performance.now();
    let recordId = maxId('coin_records') + 1;
    let buffers = ledgerBuffers(1024);
    const insertRecord = db.prepare(
      `insert into coin_records (id, user_id, delta, balance_after, reason, ref_type, ref_id, operator_id, note, created_at)
       values (?, ?, ?, ?, ?, ?, ?, null, ?, ?)`,
    );
    const recordChunk = inTx((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const k = perUser[i];
        if (k === 0) continue;
        if (k > buffers.delta.length) buffers = ledgerBuffers(k * 2);
        const id = firstId + i;
        simulateLedger(seedValue, id, k, createdAt(i), now, buffers);
        for (let j = 0; j < k; j++) {
          const reason = REASONS[buffers.reason[j]];
          const refType = REF_TYPES[reason];
          insertRecord.run(
            recordId,
            id,
            buffers.delta[j],
            buffers.balance[j],
            reason,
            refType,
            refType === null ? null : `seed-${recordId}`,
            reason === 'admin' ? '运营调整' : null,
            buffers.time[j],
          );
          recordId++;
        }
      }
    });
    // Chunks of users holding about CHUNK records each.
    for (let from = 0; from < n; ) {
      let to = from;
      let rows = 0;
      while (to < n && rows < CHUNK) rows += perUser[to++];
      recordChunk(from, to);
      from = to;
    }
    phase('coin_records', coinRecords, since);

    // 6. Messages (a quarter to everyone) and their read marks.
    since = performance.now();
    let targets: () => number | null;
    if (n > 0) {
      targets = () => firstId + Math.floor(r() * n);
    } else {
      const existing = (db.prepare('select id from users order by random() limit 10000').all() as { id: number }[]).map(
        (row) => row.id,
      );
      targets = () => (existing.length > 0 ? pick(r, existing) : null);
    }
    const m = options.messages;
    const firstMessage = maxId('messages') + 1;
    let reads = 0;
    // Messages belong to an app once the table has the column: a user's to the user's app.
    const messagesByApp = twoApps && hasColumn(db, 'messages', 'app');
    const insertMessage = db.prepare(
      `insert into messages (id, title, content, user_id, blocked, author_id, created_at, updated_at${messagesByApp ? ', app' : ''})
       values (?, ?, ?, ?, ?, null, ?, ?${messagesByApp ? ', ?' : ''})`,
    );
    const insertRead = db.prepare(
      'insert or ignore into message_reads (message_id, user_id, read_at) values (?, ?, ?)',
    );
    const messageChunk = inTx((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const id = firstMessage + i;
        const created = now - TWO_YEARS + Math.floor(((i + r()) / m) * TWO_YEARS);
        const title = pick(r, TITLES);
        // Broadcasts are rare (about two a week over two years); most messages go to one user
        // (replies, rewards, notices).
        const target = r() < 0.002 ? null : targets();
        const row = [id, title, `${title}：${pick(r, BODIES)}`, target, r() < 0.03 ? 1 : 0, created, created];
        insertMessage.run(...(messagesByApp ? [...row, appOf(target ?? id)] : row));
        const readers = target === null ? Math.floor(r() * 200) : r() < 0.5 ? 1 : 0;
        for (let k = 0; k < readers; k++) {
          const reader = target ?? targets();
          if (reader === null) break;
          reads += insertRead.run(id, reader, Math.min(now, created + Math.floor(r() * 3 * DAY))).changes;
        }
      }
    });
    for (let from = 0; from < m; from += CHUNK) messageChunk(from, Math.min(m, from + CHUNK));
    phase('messages', m, since);
    log(`  (message_reads  ${reads.toLocaleString('en-US')} rows with the messages)`);

    // 7. The operation log: twenty operators acting on users and messages over two years.
    since = performance.now();
    const a = options.auditLog;
    const firstEntry = maxId('audit_log') + 1;
    const operators = Array.from({ length: 20 }, () => targets());
    const insertEntry = db.prepare(
      `insert into audit_log (id, actor_id, action, target_type, target_id, before, after, ip, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const entryChunk = inTx((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const [targetType, action, field] = pick(r, AUDIT_ACTIONS);
        const target = targetType === 'user' ? targets() : Math.floor(r() * Math.max(m, 1)) + 1;
        insertEntry.run(
          firstEntry + i,
          pick(r, operators),
          action,
          targetType,
          target === null ? null : String(target),
          JSON.stringify({ [field]: 0 }),
          JSON.stringify({ [field]: 1 }),
          `10.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}.${Math.floor(r() * 256)}`,
          // Appended in time order, as the server writes it: id order is time order.
          now - TWO_YEARS + Math.floor(((i + 0.5) / a) * TWO_YEARS),
        );
      }
    });
    for (let from = 0; from < a; from += CHUNK) entryChunk(from, Math.min(a, from + CHUNK));
    phase('audit_log', a, since);
  } finally {
    // 8. Put back what was dropped, even after a failure, so the database stays consistent.
    if (droppedTriggers.length > 0) {
      since = performance.now();
      const range = userIds ?? { first: 1, last: 0 };
      if (usersWereEmpty) {
        db.exec(`insert into users_nickname_search(users_nickname_search) values ('rebuild')`);
        db.exec(`insert into users_grams(users_grams) values ('rebuild')`);
      } else {
        db.prepare(
          'insert into users_nickname_search(rowid, nickname) select id, nickname from users where id between ? and ?',
        ).run(range.first, range.last);
        db.prepare(
          "insert into users_grams(rowid, grams) select id, appdesk_grams(nickname || ' ' || phone) from users where id between ? and ?",
        ).run(range.first, range.last);
      }
      // What the insert trigger of migration 0010 writes, sorted so the index is written in order.
      db.prepare(
        `insert or ignore into digit_suffixes (suffix, user_id)
           select * from (select s.value as suffix, u.id from users as u,
             json_each(appdesk_digit_suffixes(u.phone, u.nickname)) as s where u.id between ? and ?)
           order by suffix, id`,
      ).run(range.first, range.last);
      for (const t of droppedTriggers) db.exec(t.sql);
      phase('users search (3+, 1-2, digits)', n, since);
    }
    if (droppedIndexes.length > 0) {
      since = performance.now();
      for (const i of droppedIndexes) db.exec(i.sql);
      phase(`indexes (${droppedIndexes.length})`, n + options.coinRecords + options.messages, since);
    }
    db.pragma('wal_checkpoint(TRUNCATE)');
  }

  const totals: Record<string, number> = {};
  for (const table of ['users', 'coin_records', 'messages', 'message_reads', 'audit_log']) totals[table] = count(table);
  db.close();
  const totalSeconds = (performance.now() - started) / 1000;
  return { file, phases, totalSeconds, userIds, totals };
}

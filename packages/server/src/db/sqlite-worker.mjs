// One SQLite connection in a worker thread (see sqlite-pool.ts). Plain JavaScript so the same
// file runs under the tests (TypeScript source) and from the built bundle (copied beside it).
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { registerSearchFunctions } from './grams.mjs';

const db = new Database(workerData.file);
db.pragma('foreign_keys = ON');
// Settings come from openDatabase (SQLITE_SYNCHRONOUS); only these two values are accepted there.
db.pragma(`busy_timeout = ${Number(workerData.busyTimeoutMs ?? 5000)}`);
db.pragma(`synchronous = ${workerData.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
// The search indexes' triggers (migrations 0005, 0010) call these.
registerSearchFunctions(db);

// Prepared statements are reused: compiling the same SQL on every call costs more than running it.
const statements = new Map();
function prepare(sql) {
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    if (statements.size >= 500) statements.delete(statements.keys().next().value);
    statements.set(sql, statement);
  }
  return statement;
}

parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    const statement = prepare(sql);
    if (statement.reader) {
      parentPort.postMessage({ id, rows: statement.all(parameters) });
    } else {
      const { changes, lastInsertRowid } = statement.run(parameters);
      parentPort.postMessage({ id, rows: [], changes, lastInsertRowid: Number(lastInsertRowid) });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});

import { createHash } from 'node:crypto';
import pg from 'pg';

/** Distinct statements a process prepares; past it, statements run unprepared (search texts vary little, so it is rarely reached). */
const MAX_PREPARED = 500;
const names = new Map<string, string>();

/** Queries and writes only: migrations' DDL and multi-statement texts run as they are. */
const preparable = /^\s*(select|insert|update|delete|with)\b[^;]*$/i;

function nameOf(text: string): string | undefined {
  if (!preparable.test(text)) return undefined;
  let name = names.get(text);
  if (!name && names.size < MAX_PREPARED) {
    name = `s${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A pg client that prepares each statement once per connection and then only binds and runs it,
 * as the SQLite workers keep their prepared statements: PostgreSQL parses and analyses a query
 * text once per connection instead of on every request. Each run is still planned for its values
 * (plan_cache_mode=force_custom_plan, set by openDatabase).
 */
export class PreparedStatementsClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() is overloaded; Kysely calls query(text, values)
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && Array.isArray(values) && typeof callback !== 'function') {
      const name = nameOf(config);
      if (name) return super.query({ name, text: config, values });
    }
    return super.query(config, values, callback);
  }
}

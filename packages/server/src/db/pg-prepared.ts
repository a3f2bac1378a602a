import { createHash } from 'node:crypto';
import pg from 'pg';

/** Distinct query texts a process decides on; past it, new texts run unprepared (search texts vary little, so it is rarely reached). */
const MAX_PREPARED = 500;
/** Each text's statement name, or null for a text that runs unnamed: decided once, not on every run. */
const names = new Map<string, string | null>();

/** Queries and writes only: migrations' DDL and multi-statement texts run as they are. */
const preparable = /^\s*(select|insert|update|delete|with)\b[^;]*$/i;

/** A match against a bound pattern: LIKE, ILIKE, SIMILAR TO or a regular expression. */
const pattern = /(?:\b(?:i?like|similar\s+to)|~\*?)\s*\$\d/i;
/** A range comparison with a bound value, and the column (or row) on its left. */
const range = /([\w."]+|\))\s*(?:<=|>=|<|>)\s*\(?\s*\$\d/g;

/**
 * Put in a statement whose ranges keep a handful of rows for any value it runs with (five digits
 * or more of a phone): one plan serves every value, so it may be kept like an id range's. A
 * seven-digit search was planned afresh twice per call (page and count), which made it 1.7 times
 * SQLite's p95.
 */
export const NARROW_RANGES = '/* narrow ranges */';

/**
 * Statements whose good plan depends on their values: a pattern, or a range on anything but an
 * id (a date range may keep ten rows or ten million). They run unnamed, so PostgreSQL plans every
 * run for its values; a generic plan once chosen for a LIKE search walked every user for a rare
 * phone fragment, and one for the digit-suffix range doubled the p95 of mixed phone searches
 * (three digits match thousands, seven a handful). An id range (a deep page from its anchor) is
 * planned the same for any value.
 */
export function plannedPerRun(text: string): boolean {
  if (pattern.test(text)) return true;
  if (text.includes(NARROW_RANGES)) return false;
  for (const [, left] of text.matchAll(range)) {
    if (left.replaceAll('"', '').split('.').pop() !== 'id') return true;
  }
  return false;
}

function nameOf(text: string): string | undefined {
  if (!preparable.test(text)) return undefined;
  let name = names.get(text);
  if (name === undefined && names.size < MAX_PREPARED) {
    name = plannedPerRun(text) ? null : `s${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
    names.set(text, name);
  }
  return name ?? undefined;
}

/**
 * A pg client that prepares each statement once per connection and then only binds and runs it,
 * as the SQLite workers keep their prepared statements: PostgreSQL parses and analyses a query
 * text once per connection instead of on every request, and (plan_cache_mode auto, the default)
 * after five runs keeps a generic plan when it costs no more than the plans made for the values.
 * Planning a list page (a join of three tables) cost PostgreSQL 0.6 ms, three times its run.
 * Value-sensitive statements are never named (plannedPerRun).
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

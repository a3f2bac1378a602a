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
 * Put in a statement whose ranges read a handful of rows for any value it runs with: five digits
 * or more of a phone, or a page that seeks from its anchor's sort key along the sort's index and
 * stops at its literal LIMIT. One plan serves every value, so it may be kept like an id range's. A
 * seven-digit search was planned afresh twice per call (page and count), which made it 1.7 times
 * SQLite's p95; a deep users page from its anchor was planned on every call too.
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

/** A LIMIT or OFFSET with a bound value, and the value's number. */
const boundLimit = /\b(limit|offset)\s+\$(\d+)\b/gi;
/** Per query text, the bound LIMITs and OFFSETs (0-based value index), or null when it has none. */
const limitSlots = new Map<string, { index: number; offset: boolean }[] | null>();
const MAX_LIMIT_TEXTS = 2000;

/**
 * The query with its LIMITs, and its OFFSETs of 0, written as literals, and the values renumbered.
 * A statement whose LIMIT is bound never keeps a generic plan: planned without the value,
 * PostgreSQL assumes it keeps a tenth of the rows, which costs more than any plan made for 20, so
 * it plans every run afresh. For a ledger page (three joins) that was 0.3 ms of planning against a
 * run of 0.09 ms, most of the database's time per list call. Page sizes are few, so the texts stay
 * few; an OFFSET past 0 stays bound (every deep page would be a text of its own).
 */
export function inlineLimits(text: string, values: unknown[]): { text: string; values: unknown[] } {
  let slots = limitSlots.get(text);
  if (slots === undefined) {
    const found = [...text.matchAll(boundLimit)].map((m) => ({
      index: Number(m[2]) - 1,
      offset: m[1].toLowerCase() === 'offset',
    }));
    slots = found.length > 0 ? found : null;
    if (limitSlots.size < MAX_LIMIT_TEXTS) limitSlots.set(text, slots);
  }
  if (!slots) return { text, values };
  const literals = new Map<number, number>();
  for (const { index, offset } of slots) {
    const value = values[index];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && (!offset || value === 0)) {
      literals.set(index, value);
    }
  }
  if (literals.size === 0) return { text, values };
  // Each value's new number: its old one less the literals before it.
  const renumbered: number[] = [];
  let dropped = 0;
  for (let i = 0; i < values.length; i++) {
    if (literals.has(i)) dropped += 1;
    renumbered.push(i + 1 - dropped);
  }
  return {
    text: text.replace(/\$(\d+)\b/g, (_, n: string) => {
      const index = Number(n) - 1;
      return String(literals.get(index) ?? `$${renumbered[index]}`);
    }),
    values: values.filter((_, i) => !literals.has(i)),
  };
}

/** The statement name of a preparable text (the caller has checked `preparable`). */
function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_PREPARED) {
    name = plannedPerRun(text) ? null : `s${createHash('sha1').update(text).digest('base64url').slice(0, 16)}`;
    names.set(text, name);
  }
  return name ?? undefined;
}

/** What a statement may do to the rows a session lookup reads (the session cache's concern). */
type SessionEffect = 'none' | 'write' | 'begin' | 'end';
const sessionEffects = new Map<string, SessionEffect>();
const MAX_EFFECT_TEXTS = 2000;
const writes = /\b(insert|update|delete|truncate|merge)\b/i;
const sessionTables = /\b(users|sessions)\b/i;

function sessionEffectOf(text: string): SessionEffect {
  let effect = sessionEffects.get(text);
  if (effect === undefined) {
    if (/^\s*(begin|start\s+transaction)\b/i.test(text)) effect = 'begin';
    else if (/^\s*(commit|end|abort|rollback(?!\s+to\b))\b/i.test(text)) effect = 'end';
    // Either may name another table (an insert that selects from users): clearing too often is harmless.
    else effect = writes.test(text) && sessionTables.test(text) ? 'write' : 'none';
    if (sessionEffects.size < MAX_EFFECT_TEXTS) sessionEffects.set(text, effect);
  }
  return effect;
}

export interface PreparedStatementsConfig extends pg.ClientConfig {
  /**
   * Called once a statement that may have changed `users` or `sessions` has completed, and again
   * when the transaction it ran in has ended: the session cache is cleared (core/session-cache.ts).
   */
  afterSessionWrite?: () => void;
}

/**
 * A pg client that prepares each statement once per connection and then only binds and runs it,
 * as the SQLite workers keep their prepared statements: PostgreSQL parses and analyses a query
 * text once per connection instead of on every request, and (plan_cache_mode auto, the default)
 * after five runs keeps a generic plan when it costs no more than the plans made for the values.
 * Planning a list page (a join of three tables) cost PostgreSQL 0.6 ms, three times its run.
 * Value-sensitive statements are never named (plannedPerRun); LIMITs are written as literals so
 * that list pages keep their plan too (inlineLimits).
 */
export class PreparedStatementsClient extends pg.Client {
  readonly #afterSessionWrite: (() => void) | undefined;
  /** A write to users or sessions since the last begin: its transaction's end is heard too. */
  #wroteSessions = false;

  constructor(config: PreparedStatementsConfig = {}) {
    super(config);
    this.#afterSessionWrite = config.afterSessionWrite;
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() is overloaded; Kysely calls query(text, values)
  override query(config: any, values?: any, callback?: any): any {
    if (
      typeof config === 'string' &&
      Array.isArray(values) &&
      typeof callback !== 'function' &&
      preparable.test(config)
    ) {
      const query = inlineLimits(config, values);
      const name = nameOf(query.text);
      return this.#heard(config, super.query(name ? { name, ...query } : query));
    }
    const result = super.query(config, values, callback);
    return typeof config === 'string' && typeof callback !== 'function'
      ? this.#heard(config, result as unknown as Promise<unknown>)
      : result;
  }

  /** Tells the session cache, once `result` has settled, about a statement that may have changed sessions. */
  #heard<T>(text: string, result: Promise<T>): Promise<T> {
    const after = this.#afterSessionWrite;
    if (!after) return result;
    const effect = sessionEffectOf(text);
    if (effect === 'none') return result;
    if (effect === 'begin') {
      this.#wroteSessions = false;
      return result;
    }
    if (effect === 'end') {
      const wrote = this.#wroteSessions;
      this.#wroteSessions = false;
      if (!wrote) return result;
    } else {
      this.#wroteSessions = true;
    }
    return result.then(
      (value) => {
        after();
        return value;
      },
      (error) => {
        after();
        throw error;
      },
    );
  }
}

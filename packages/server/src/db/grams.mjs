// What the search indexes keep of a user, computed in JavaScript for SQLite's triggers: the SQLite
// worker and writer register these as SQL functions (registerSearchFunctions), and the bench's
// seeding connection does too. Plain JavaScript, so the worker runs it without a build.
// - appdesk_grams: the one- and two-character pieces of a text, for substring searches shorter
//   than a trigram (Chinese names are two or three characters), migration 0005;
// - appdesk_digit_suffixes: the digit suffixes of a phone and nickname, migration 0010.

const tokenChars = /^[\p{L}\p{N}]+$/u;

/** Space-separated distinct lower-case 1- and 2-character pieces of letters and digits. */
export function grams(text) {
  if (typeof text !== 'string' || text === '') return '';
  const chars = [...text.toLowerCase()];
  const pieces = new Set();
  for (let i = 0; i < chars.length; i++) {
    if (tokenChars.test(chars[i])) pieces.add(chars[i]);
    const pair = chars[i] + (chars[i + 1] ?? '');
    if (i + 1 < chars.length && tokenChars.test(pair)) pieces.add(pair);
  }
  return [...pieces].join(' ');
}

/** Shortest digit string the digit-suffix index answers (shorter ones use the pieces above). */
export const SHORTEST_DIGITS = 3;
const digitRuns = /[0-9]{3,}/g;

/**
 * Every suffix, three digits or longer, of the phone and of each run of three or more ASCII
 * digits in the nickname, each once. Digits q are in the phone or nickname exactly when one of
 * these starts with q: an occurrence of digits lies inside one run of digits.
 */
export function digitSuffixes(phone, nickname) {
  const runs = [...(typeof nickname === 'string' ? (nickname.match(digitRuns) ?? []) : [])];
  if (typeof phone === 'string') runs.push(phone);
  const suffixes = new Set();
  for (const run of runs) {
    for (let start = 0; start <= run.length - SHORTEST_DIGITS; start++) suffixes.add(run.slice(start));
  }
  return [...suffixes];
}

/** Registers the functions above on a better-sqlite3 connection (the JSON array for json_each). */
export function registerSearchFunctions(db) {
  db.function('appdesk_grams', { deterministic: true }, grams);
  db.function('appdesk_digit_suffixes', { deterministic: true }, (phone, nickname) =>
    JSON.stringify(digitSuffixes(phone, nickname)),
  );
}

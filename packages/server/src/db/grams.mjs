// The one- and two-character pieces of a text, for substring searches shorter than a trigram
// (Chinese names are two or three characters). Plain JavaScript: the SQLite worker registers it
// as the SQL function appdesk_grams, and the bench's seeding connection does too.

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

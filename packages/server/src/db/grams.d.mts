/** Space-separated distinct lower-case 1- and 2-character pieces of letters and digits. */
export function grams(text: string | null): string;
export const SHORTEST_DIGITS: number;
/** Every suffix (3+ digits) of the phone and of each run of 3+ digits in the nickname, each once. */
export function digitSuffixes(phone: string | null, nickname: string | null): string[];
/** Registers appdesk_grams and appdesk_digit_suffixes on a better-sqlite3 connection. */
export function registerSearchFunctions(db: {
  function(name: string, options: { deterministic: boolean }, fn: (...args: never[]) => unknown): unknown;
}): void;

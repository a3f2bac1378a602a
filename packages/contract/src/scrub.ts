/**
 * What a browser's error report may carry: its text with the parts that could name a person or
 * open an account taken out. The reporter scrubs before sending and the server scrubs again before
 * keeping (a report is anonymous, so the server trusts nothing in it). Dependency-free: the home
 * page's entry imports it.
 */

/** Marks text taken out. */
export const SCRUBBED = '‹已隐去›';

/**
 * A URL or an absolute path followed by its query string or fragment: the query and fragment go,
 * a stack frame's `:line:column` after them stays.
 */
const queryAfterPath =
  /((?:https?:\/\/[^\s?#'"()<>]*|(?<![\w/])\/[\w\-./~%@:]*))[?#][^\s'"()<>]*?(?=:\d+:\d+\b|[\s'"()<>]|$)/gm;
/** `token=…`, `token: …`, `Bearer …`, `password=…` and the like: the value goes. */
const namedSecret =
  /\b(token|authorization|bearer|password|passwd|secret|session|cookie)(["']?\s*[=:]\s*["']?|\s+)[^\s&"',;)]+/gi;
/** Long runs of letters and digits (tokens, digests, keys). */
const longRun = /[A-Za-z0-9_-]{32,}/g;
/** Email addresses. */
const email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
/** Seven digits or more (phones, ids, cards), with +86 or spaces inside; not a stack frame's `:line:col`. */
const digitRun = /(?<![\d:])(?:\+?86[\s-]?)?\d(?:[\s-]?\d){6,}/g;

/** `text` without query strings, secrets, long tokens, emails and phone-like digit runs, at most `max` characters. */
export function scrubText(text: string, max: number): string {
  const scrubbed = text
    .replace(queryAfterPath, '$1')
    .replace(namedSecret, (_, name: string, sep: string) => `${name}${sep}${SCRUBBED}`)
    .replace(email, SCRUBBED)
    .replace(longRun, SCRUBBED)
    .replace(digitRun, SCRUBBED);
  const chars = Array.from(scrubbed);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : scrubbed;
}

/** A page's path as reported: no origin, query or fragment. */
export function pagePath(href: string): string {
  const path = href.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/[?#].*$/, '') || '/';
  return scrubText(path, 300);
}

/** Limits of a report: what the contract accepts and what the reporter cuts to. */
export const clientErrorLimits = {
  message: 500,
  stack: 4000,
  path: 300,
  release: 64,
  userAgent: 300,
  /** Identical reports a client may fold into one while it waits to send (its queue holds 100). */
  repeats: 100,
} as const;

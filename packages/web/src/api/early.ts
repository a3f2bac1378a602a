import type { ApiInput, ApiOutput, ApiPath } from '@appdesk/contract/types';
import { callOk } from './request';

/**
 * Reads asked for before the page that needs them has loaded: the entry knows the page from the
 * URL (and the menu from the click), so the request runs while the page's code downloads instead
 * of after it. The page's own query takes the answer once (useList), when its request is the same;
 * an answer nobody took within `keepMs` of being asked is dropped, so nothing old is ever shown.
 */
const keepMs = 10_000;
const early = new Map<string, { answer: Promise<unknown>; at: number }>();

const keyOf = (path: ApiPath, input: unknown) => JSON.stringify([path, input]);

/** Asks now for what the page will ask; quietly: a failure is asked again, and shown, by the page. */
export function startEarly<P extends ApiPath>(path: P, input: ApiInput<P>): void {
  const key = keyOf(path, input);
  const now = performance.now();
  for (const [k, entry] of early) if (now - entry.at > keepMs) early.delete(k);
  if (early.has(key)) return;
  const answer = callOk(path, input, { silent: true });
  answer.catch(() => undefined);
  early.set(key, { answer, at: now });
}

/** The answer asked for early to exactly this request, once; undefined when there is none (or it is old). */
export function takeEarly<P extends ApiPath>(path: P, input: ApiInput<P>): Promise<ApiOutput<P>> | undefined {
  const key = keyOf(path, input);
  const entry = early.get(key);
  early.delete(key);
  if (!entry || performance.now() - entry.at > keepMs) return undefined;
  return entry.answer as Promise<ApiOutput<P>>;
}

import { clientErrorLimits as limits, pagePath, scrubText } from '@appdesk/contract/scrub';

/**
 * Reports the page's uncaught errors and unhandled promise rejections to our own server
 * (/api/clienterror/report, listed for operators under 前端错误), so a broken page is seen before a
 * user complains. Production builds only (main.tsx). At most REPORTS_PER_MINUTE reports leave in any
 * minute; up to QUEUE_SIZE wait their turn (repeats of one error fold into one report with a count)
 * and the rest are dropped. Nothing personal: no token or cookie is sent, and every text is scrubbed
 * of query strings, secrets and phone-like numbers first (@appdesk/contract/scrub).
 */

export const REPORTS_PER_MINUTE = 60;
export const QUEUE_SIZE = 100;
const MINUTE = 60_000;
/** Errors of one moment go together: a loop's repeats fold into one report before it is sent. */
const GATHER_MS = 1_000;

export type ErrorKind = 'error' | 'rejection';

export interface ClientErrorReport {
  kind: ErrorKind;
  message: string;
  stack: string;
  path: string;
  release: string;
  userAgent: string;
  repeats: number;
}

export interface ReporterOptions {
  release: string;
  send: (report: ClientErrorReport) => void;
  /** The page's address (default: the current one). */
  href?: () => string;
  userAgent?: string;
  now?: () => number;
  setTimer?: (work: () => void, ms: number) => unknown;
}

/** What a thrown value or rejection reason says: its name and message, and its stack if it has one. */
export function describe(value: unknown, kind: ErrorKind): { message: string; stack: string } {
  if (value instanceof Error) {
    const stack = typeof value.stack === 'string' ? value.stack : '';
    return { message: `${value.name}: ${value.message}`, stack };
  }
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return { message: kind === 'rejection' ? `Promise 被拒绝：${text}` : text, stack: '' };
}

export function createErrorReporter(options: ReporterOptions) {
  const now = options.now ?? Date.now;
  const setTimer = options.setTimer ?? ((work: () => void, ms: number) => setTimeout(work, ms));
  const href = options.href ?? (() => window.location.href);
  const userAgent = scrubText(options.userAgent ?? navigator.userAgent, limits.userAgent);
  const queue: (ClientErrorReport & { key: string })[] = [];
  /** When each report of the last minute left. */
  const sentAt: number[] = [];
  let timer: unknown = null;
  let dropped = 0;

  function schedule(ms: number) {
    if (timer !== null) return;
    timer = setTimer(() => {
      timer = null;
      flush();
    }, ms);
  }

  /** Sends what the minute allows, oldest first; the rest waits for the minute's first report to age out. */
  function flush() {
    const at = now();
    while (sentAt.length && at - sentAt[0] >= MINUTE) sentAt.shift();
    while (queue.length && sentAt.length < REPORTS_PER_MINUTE) {
      const { key: _key, ...report } = queue.shift() as (typeof queue)[number];
      sentAt.push(at);
      options.send(report);
    }
    if (queue.length) schedule(sentAt[0] + MINUTE - at);
  }

  function report(kind: ErrorKind, value: unknown) {
    const described = describe(value, kind);
    const message = scrubText(described.message, limits.message) || '未知错误';
    const stack = scrubText(described.stack, limits.stack);
    const path = pagePath(href());
    const key = `${kind}\n${message}\n${stack}\n${path}`;
    const same = queue.find((r) => r.key === key);
    if (same) same.repeats = Math.min(limits.repeats, same.repeats + 1);
    else if (queue.length < QUEUE_SIZE)
      queue.push({ key, kind, message, stack, path, release: options.release, userAgent, repeats: 1 });
    else dropped += 1;
    schedule(GATHER_MS);
  }

  return { report, flush, pending: () => queue.length, dropped: () => dropped };
}

function post(report: ClientErrorReport) {
  // No token: the report is anonymous. keepalive lets it leave while the page is closing.
  fetch('/api/clienterror/report', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
    credentials: 'omit',
    keepalive: true,
  }).catch(() => undefined);
}

/** Listens for the page's uncaught errors and unhandled rejections (once per page load). */
export function installErrorReporter(release: string): void {
  const reporter = createErrorReporter({ release, send: post });
  window.addEventListener('error', (event) => {
    // A script of another origin tells nothing ("Script error."), and a failed image is not an error event of the window.
    if (!(event instanceof ErrorEvent) || (!event.error && !event.filename)) return;
    reporter.report('error', event.error ?? event.message);
  });
  window.addEventListener('unhandledrejection', (event) => reporter.report('rejection', event.reason));
  // What is still waiting leaves as the page closes (within the minute's allowance).
  window.addEventListener('pagehide', () => reporter.flush());
}

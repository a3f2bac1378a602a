import { fail } from '../http/errors';
import { retryIn } from './throttle';

/**
 * Counts per client address in fixed windows, kept in this process's memory: for hot anonymous
 * writes (a promotion `show` on every app start) where a counter in the database would double the
 * write it guards. Each server process counts on its own, so with n instances an address may do
 * n times the limit; a restart starts the counts afresh. Bounded: at most `capacity` addresses are
 * remembered (expired ones are dropped first, then all of them).
 */
export class AddressWindow {
  private readonly counts = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly refusal: string,
    private readonly capacity = 10_000,
  ) {}

  /** Takes one unit for `address`, or answers 429 saying when to retry (taking nothing). */
  take(address: string, now = Date.now()): void {
    let entry = this.counts.get(address);
    if (!entry || now - entry.start >= this.windowMs) {
      if (!entry && this.counts.size >= this.capacity) this.forget(now);
      entry = { start: now, used: 0 };
      this.counts.set(address, entry);
    }
    if (entry.used >= this.max) throw fail.tooMany(`${this.refusal}，${retryIn(entry.start + this.windowMs - now)}`);
    entry.used += 1;
  }

  private forget(now: number): void {
    for (const [address, entry] of this.counts) if (now - entry.start >= this.windowMs) this.counts.delete(address);
    if (this.counts.size >= this.capacity) this.counts.clear();
  }
}

/** One window per server (keyed by its config object, which every server has its own of, also in tests). */
export function perServer<K extends object>(make: (key: K) => AddressWindow): (key: K) => AddressWindow {
  const windows = new WeakMap<K, AddressWindow>();
  return (key) => {
    let window = windows.get(key);
    if (!window) {
      window = make(key);
      windows.set(key, window);
    }
    return window;
  };
}

/**
 * What a hot app call read, kept per server for a short while so that repeated calls skip the
 * database. The server's own writes drop the copies at once (`forget`); another instance's writes
 * show when the copy lapses, within the second that several instances promise each other
 * (docs/operations.md#several-instances-on-one-database). At most `limit` keys are kept per server; past it the oldest half goes.
 */
export class RecentAnswers<T> {
  private readonly byOwner = new WeakMap<object, Map<string, { value: T; readAt: number }>>();

  constructor(
    private readonly keepMs: number,
    private readonly limit = 1000,
  ) {}

  async get(owner: object, key: string, read: () => Promise<T>): Promise<T> {
    let kept = this.byOwner.get(owner);
    if (!kept) {
      kept = new Map();
      this.byOwner.set(owner, kept);
    }
    const now = Date.now();
    const hit = kept.get(key);
    if (hit && now - hit.readAt < this.keepMs) return hit.value;
    const value = await read();
    if (kept.size >= this.limit) {
      let drop = kept.size / 2;
      for (const old of kept.keys()) {
        if (drop-- <= 0) break;
        kept.delete(old);
      }
    }
    kept.set(key, { value, readAt: now });
    return value;
  }

  /** Drops every copy this server keeps (after a change). */
  forget(owner: object): void {
    this.byOwner.delete(owner);
  }
}

import { timings } from '@appdesk/contract/constants';
import { type ComponentProps, type ComponentType, createElement, use } from 'react';

export class ChunkTimeoutError extends Error {
  constructor() {
    super('页面加载超时');
    this.name = 'ChunkTimeoutError';
  }
}

/** Rejects a chunk import that takes longer than timings.chunkLoadTimeoutMs (120000 ms). */
export function withChunkTimeout<T>(load: Promise<T>, ms: number = timings.chunkLoadTimeoutMs): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkTimeoutError()), ms);
    load.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A promise whose outcome React's `use` reads at once when it has settled (React's own convention). */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

const onceLoaders = new WeakSet<() => Promise<unknown>>();

/**
 * A chunk's loader that loads once, under the chunk-load timeout (`timings`): every call answers the same
 * promise, so a page's code started early (adminBoot: the entry, the menu) is the code it renders.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  if (onceLoaders.has(load)) return load;
  let pending: Tracked<T> | null = null;
  const once = () => {
    if (pending) return pending;
    const tracked: Tracked<T> = withChunkTimeout(load());
    tracked.status = 'pending';
    tracked.then(
      (value) => {
        tracked.status = 'fulfilled';
        tracked.value = value;
      },
      (reason: unknown) => {
        tracked.status = 'rejected';
        tracked.reason = reason;
      },
    );
    pending = tracked;
    return tracked;
  };
  onceLoaders.add(once);
  return once;
}

/**
 * A lazily loaded component (as React.lazy, with the chunk-load timeout of `timings`). Unlike React.lazy,
 * code that has already arrived renders at once: no fallback is committed first (a page whose code
 * was started early, or hovered in the menu, opens in one render).
 */
// biome-ignore lint/suspicious/noExplicitAny: any props, as React.lazy
export function lazyPage<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): ComponentType<ComponentProps<T>> {
  const get = loadOnce(load);
  return function LazyPage(props: ComponentProps<T>) {
    return createElement(use(get()).default, props);
  };
}

/** A named component export of a lazily loaded module (a drawer or modal opened later), as lazyPage. */
// biome-ignore lint/suspicious/noExplicitAny: any props, as React.lazy
export function lazyExport<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): ComponentType<ComponentProps<M[K]>> {
  return lazyPage(() => load().then((module) => ({ default: module[name] })));
}

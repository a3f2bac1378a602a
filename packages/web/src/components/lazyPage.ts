import { timings } from '@appdesk/contract/constants';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

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

/** React.lazy with the spec's chunk-load timeout. */
// biome-ignore lint/suspicious/noExplicitAny: mirrors React.lazy's own signature
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => withChunkTimeout(load()));
}

/** A named component export of a lazily loaded module (a drawer or modal opened later), as lazyPage. */
// biome-ignore lint/suspicious/noExplicitAny: any props, as React.lazy
export function lazyExport<M extends Record<K, ComponentType<any>>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazyPage(() => load().then((module) => ({ default: module[name] })));
}

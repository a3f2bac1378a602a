// Vite's (and Vitest's) import.meta.glob; the server's esbuild build expands it the same way
// (packages/server/build.mjs). Eager only: the result is known when the module loads.
interface ImportMeta {
  glob<M = unknown>(pattern: string | string[], options: { eager: true }): Record<string, M>;
}

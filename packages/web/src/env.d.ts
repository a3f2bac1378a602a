declare module '*.css';

interface Window {
  /** Optional page-view analytics function (docs/spec-notes.md#2-routes-layouts-and-pages). */
  ga?: (...args: unknown[]) => void;
}

/** The build's release (vite.config.ts): the commit, or APP_RELEASE. */
declare const __APP_RELEASE__: string;

/** Vite's build flags (only the one used: production builds report their errors). */
interface ImportMeta {
  readonly env: { readonly PROD: boolean };
}

/** Vite's lazy import.meta.glob (the contract's glob.d.ts declares the eager form). */
interface ImportMeta {
  glob<M = unknown>(pattern: string | string[]): Record<string, () => Promise<M>>;
}

declare module '*.css';

interface Window {
  /** Optional page-view analytics function (spec section 2). */
  ga?: (...args: unknown[]) => void;
}

/**
 * A tiny location store shared by the prefix dispatcher and the layouts. History changes made by
 * anyone (our navigate, React Router, the back button) notify subscribers, so the dispatcher can
 * switch layouts and the analytics hook sees every route change.
 */
const CHANGE = 'appdesk:locationchange';
let installed = false;

export function installHistoryEvents(): void {
  if (installed) return;
  installed = true;
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = window.history[method];
    window.history[method] = function patched(this: History, ...args: Parameters<History['pushState']>) {
      original.apply(this, args);
      window.dispatchEvent(new Event(CHANGE));
    };
  }
}

export function subscribeLocation(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(CHANGE, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(CHANGE, listener);
  };
}

/** Path plus query string, e.g. `/email/validate?token=...`. */
export const currentHref = (): string => window.location.pathname + window.location.search;

/**
 * Client-side navigation between any two paths of the app (also across layouts). A router mounted
 * by a layout (the admin console's React Router) hears only `popstate`, not our pushState, so one
 * is dispatched too: otherwise a link from one console page to another changed the address but
 * left the old page on screen.
 */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === currentHref() && options.replace) return;
  window.history[options.replace ? 'replaceState' : 'pushState'](null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  window.scrollTo(0, 0);
}

/** True when `path` is `prefix` itself or below it. */
export const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

let lastTracked = '';
/** docs/spec-notes.md#2-routes-layouts-and-pages: a page-view call with path and query string if a global analytics function exists. */
export function trackPageview(href: string): void {
  if (href === lastTracked) return;
  lastTracked = href;
  if (typeof window.ga === 'function') window.ga('send', 'pageview', href);
}

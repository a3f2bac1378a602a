import type { ApiInput, ApiPath } from '@appdesk/contract/types';
import type { PagedPath } from './listState';

/*
 * Which of the console's reads follow the header's app switcher (state/apps.ts): those whose
 * input has an optional top-level `app` (the contract's appCode). The console carries no zod, so
 * the set is written out below and TypeScript keeps it equal to the contract's: a list or
 * dashboard endpoint that gains `app` fails the type check until it is named here, and a name
 * whose endpoint has no `app` fails too.
 */

/** Endpoints whose input has an optional `app`. */
type OptionalAppPath = {
  [P in ApiPath]: 'app' extends keyof ApiInput<P>
    ? Partial<Pick<ApiInput<P>, 'app'>> extends Pick<ApiInput<P>, 'app'>
      ? P
      : never
    : never;
}[ApiPath];

/** The lists (server pages, whose exports take the same filter) and the dashboard's cards. */
export type AppScopedPath = Extract<OptionalAppPath, PagedPath | `/api/dashboard/${string}`>;

/** true: follows the switcher; false: takes `app` as its own filter only (named, so a new one is a decision). */
const scoped: Record<AppScopedPath, boolean> = {
  '/api/a11t/fetch/page': true,
  '/api/dashboard/fetch/cards': true,
  '/api/dashboard/fetch/charts': true,
  '/api/exchange/fetch/mine': false,
  '/api/exchange/item/fetch/page': true,
  '/api/exchange/record/fetch/page': true,
  '/api/iaprecord/fetch/page': true,
  '/api/message/fetch/page': true,
  '/api/message/fetch/page/mine': false,
  '/api/payment/fetch/page': true,
  '/api/vip/fetch/page': true,
  '/api/feedback/fetch/page': true,
  '/api/feedbackv2/fetch/page': true,
  '/api/help/fetch/page': true,
  '/api/iap/fetch/page': true,
  '/api/order/fetch/page': true,
  '/api/plan/fetch/page': true,
  '/api/reviewreward/fetch/page': true,
  '/api/selfapp/fetch/page': true,
  '/api/selfapp/record/fetch/page': true,
  // Accounts are company-wide: the users list keeps its own 注册应用 filter. Following the switcher
  // would also turn its phone and nickname searches into scans at a million users (bench/results/two-apps.md).
  '/api/users/fetch/page': false,
  '/api/version/fetch/page': true,
};

/** Whether `path` follows the switcher: its input takes `app`. */
export function followsApp(path: string): path is AppScopedPath {
  return scoped[path as AppScopedPath] === true;
}

/**
 * The input `path` is asked with under the switcher's `app` (undefined: 全部应用): the switcher's
 * app replaces any the page set, and 全部应用 sends none. Other endpoints' inputs are unchanged.
 */
export function scopeToApp<I>(path: string, input: I, app: string | undefined): I {
  if (!followsApp(path) || input === null || typeof input !== 'object') return input;
  const { app: _page, ...rest } = input as Record<string, unknown>;
  return (app ? { ...rest, app } : rest) as I;
}

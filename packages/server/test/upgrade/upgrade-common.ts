import path from 'node:path';
import type { PaymentKeys } from '../payment-signers';
import type { ChainMaterial } from '../storekit-chain';

/** Where make-fixture.ts writes and upgrade.test.ts reads the previous release's site. */
export const FIXTURES = path.join(import.meta.dirname, 'fixtures');

export type Dialect = 'sqlite' | 'postgres';
/** Whose token a call carries: the first administrator, the VIP user, the user with coins. */
export type Caller = 'admin' | 'vip' | 'rich';

export interface AppCall {
  path: string;
  body?: unknown;
  as?: Caller;
}

/** A call and what the previous release answered; `volatile` lists the answer's fields that are times of now. */
export interface Recorded extends AppCall {
  answer: { code: number; message: string; data?: unknown; [key: string]: unknown };
  volatile: string[];
}

export interface FixtureEnv {
  /** The commit of the release that made the site. */
  release: string;
  madeAt: number;
  /** The environment the release ran with (APPLE_ROOT_CERTIFICATES relative to FIXTURES). */
  env: Record<string, string>;
  /** Test keys: the platforms' side of that environment, to sign notifications and purchases. */
  keys: { alipay: PaymentKeys; storekit: ChainMaterial };
  sites: Record<Dialect, { tokens: Record<Caller, string>; calls: Recorded[] }>;
}

const device = { deviceId: 'upgrade-device-1' };
/**
 * The calls (asked in this order) whose answers must not change across an upgrade: what the app asks (version check,
 * remote config, plans, help, messages, its user, exchange, feedback, rewards, promotion), and the
 * console's lists of what the app bought. Ids are those of the fresh site make-fixture.ts fills.
 */
export const appCalls: AppCall[] = [
  { path: '/api/allocation/fetch' },
  {
    path: '/api/version/fetch/latest',
    body: { app: 'tailor', platform: 'android', channel: 'huawei', versionCode: 120, ...device },
  },
  {
    path: '/api/version/fetch/latest',
    body: { app: 'tailor', platform: 'android', channel: 'xiaomi', versionCode: 200, ...device },
  },
  {
    path: '/api/a11t/fetch',
    body: { app: 'tailor', platform: 'android', channel: 'huawei', versionCode: 200, ...device },
  },
  { path: '/api/plan/fetch/onsale', body: { app: 'tailor', platform: 'android' } },
  { path: '/api/plan/fetch/onsale', body: { app: 'tailor', platform: 'ios' } },
  { path: '/api/help/fetch/published', body: { app: 'tailor' } },
  { path: '/api/help/fetch/article', body: { id: 1 } },
  { path: '/api/exchange/fetch/list', as: 'rich' },
  { path: '/api/exchange/fetch/mine', as: 'rich' },
  { path: '/api/selfapp/fetch/list', body: { app: 'tailor', platform: 'android' } },
  { path: '/api/users/fetch/info', as: 'vip' },
  { path: '/api/users/fetch/info', as: 'rich' },
  { path: '/api/message/fetch/page/mine', as: 'vip' },
  { path: '/api/message/fetch/page/unread', as: 'vip' },
  { path: '/api/order/fetch/mine', body: { orderNo: '{{orderNo}}' }, as: 'vip' },
  { path: '/api/feedback/fetch/mine', as: 'vip' },
  // The thread first: reading it marks the reply read, which the list then shows.
  { path: '/api/feedbackv2/fetch/thread', body: { id: 1 }, as: 'vip' },
  { path: '/api/feedbackv2/fetch/mine', as: 'vip' },
  { path: '/api/reviewreward/fetch/mine', as: 'rich' },
  { path: '/api/iap/fetch/page', as: 'admin' },
  { path: '/api/iaprecord/fetch/page', as: 'admin' },
  { path: '/api/order/fetch/page', as: 'admin' },
];

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The paths (`data.list.0.createdAt`) whose values differ between two answers to the same call. */
export function volatilePaths(a: Json, b: Json, at = ''): string[] {
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((v, i) => volatilePaths(v, b[i], `${at}${at ? '.' : ''}${i}`));
  }
  if (isObject(a) && isObject(b)) {
    return Object.keys(a).flatMap((k) => volatilePaths(a[k], b[k], `${at}${at ? '.' : ''}${k}`));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [at];
}

/**
 * Where `now` differs from the recorded answer: every recorded field must be there with the same
 * value (a field the answer newly gains is fine), except the volatile ones.
 */
export function differences(recorded: Json, now: Json, volatile: string[], at = ''): string[] {
  if (volatile.includes(at)) return [];
  const show = (v: Json) => JSON.stringify(v)?.slice(0, 200);
  if (Array.isArray(recorded)) {
    if (!Array.isArray(now) || now.length !== recorded.length) return [`${at}: ${show(recorded)} → ${show(now)}`];
    return recorded.flatMap((v, i) => differences(v, now[i], volatile, `${at}${at ? '.' : ''}${i}`));
  }
  if (isObject(recorded)) {
    if (!isObject(now)) return [`${at}: ${show(recorded)} → ${show(now)}`];
    return Object.keys(recorded).flatMap((k) =>
      differences(recorded[k], now[k], volatile, `${at}${at ? '.' : ''}${k}`),
    );
  }
  return Object.is(recorded, now) ? [] : [`${at}: ${show(recorded)} → ${show(now)}`];
}

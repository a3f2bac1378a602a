import { DEFAULT_APP } from '@appdesk/contract/constants';
import { sha256hex } from './lib/fixtures';
import type { Scenario } from './lib/load';

/**
 * The load scenarios, run in this order (each: warm-up, then the measured run). To measure
 * another endpoint, append an entry; `body` may be a function of the request number.
 * `loginPhones` are accounts (status normal) that share `password`.
 */
export function scenarios(options: {
  loginPhones: string[];
  password: string;
  nicknames?: string[];
  /** From lib/app-data.ts: the config tag the "unchanged" scenario sends, and the device it asks as. */
  appData?: { configTag: string; deviceId: string };
}): Scenario[] {
  const digest = sha256hex(options.password);
  const phones = options.loginPhones;
  const nicknames = options.nicknames?.length ? options.nicknames : ['管理'];
  return [
    {
      name: 'baseline',
      measures: 'bare Fastify 5, one POST JSON route, no database: the ceiling on this machine',
      target: 'baseline',
      path: '/api/baseline',
    },
    {
      name: 'allocation/fetch',
      measures: 'public call: envelope, validation, one SQLite read of the site configuration',
      target: 'server',
      path: '/api/allocation/fetch',
    },
    {
      name: 'users/fetch/info',
      measures: 'signed-in call: token lookup (sessions ⋈ users) and the current user',
      target: 'server',
      path: '/api/users/fetch/info',
      token: 'admin',
    },
    {
      name: 'users/fetch/page p0',
      measures: 'operator list, first page with the total (1M users: an indexed page and a count)',
      target: 'server',
      path: '/api/users/fetch/page',
      body: { page: 0, size: 20 },
      token: 'admin',
    },
    {
      name: 'users/fetch/page p10000',
      measures: 'operator list, page 10,000 of 20 rows (offset 200,000 on the sign-up index)',
      target: 'server',
      path: '/api/users/fetch/page',
      body: { page: 10_000, size: 20 },
      token: 'admin',
    },
    {
      name: 'users/fetch/page phone search',
      measures: 'search by 3 to 11 consecutive digits of a real phone (trigram index), first page with the total',
      target: 'server',
      path: '/api/users/fetch/page',
      body: (n: number) => ({ page: 0, size: 20, search: phoneFragment(phones[n % phones.length], n) }),
      token: 'admin',
    },
    {
      name: 'users/fetch/page 7-digit phone',
      measures: 'search by 7 consecutive digits of a real phone, first page with the total',
      target: 'server',
      path: '/api/users/fetch/page',
      body: (n: number) => ({ page: 0, size: 20, search: phones[n % phones.length].slice(n % 5, (n % 5) + 7) }),
      token: 'admin',
    },
    {
      name: 'users/fetch/page 7-digit phone in 正常',
      measures: 'the same search in the 正常 (normal) status tab, first page with the tab’s total',
      target: 'server',
      path: '/api/users/fetch/page',
      body: (n: number) => ({
        page: 0,
        size: 20,
        status: 'normal',
        search: phones[n % phones.length].slice(n % 5, (n % 5) + 7),
      }),
      token: 'admin',
    },
    {
      name: 'users/fetch/page 1-char nickname',
      measures: 'search by one character of a real nickname (any position), first page with the total',
      target: 'server',
      path: '/api/users/fetch/page',
      body: (n: number) => ({ page: 0, size: 20, search: oneChar(nicknames[n % nicknames.length], n) }),
      token: 'admin',
    },
    {
      name: 'users/fetch/page 2-char nickname',
      measures: 'search by two characters of a real nickname (any position), first page with the total',
      target: 'server',
      path: '/api/users/fetch/page',
      body: (n: number) => ({ page: 0, size: 20, search: twoChars(nicknames[n % nicknames.length], n) }),
      token: 'admin',
    },
    {
      name: 'coin/fetch/page p0',
      measures: 'the ledger, first page of 20 with the total',
      target: 'server',
      path: '/api/coin/fetch/page',
      body: { page: 0, size: 20 },
      token: 'admin',
    },
    {
      name: 'coin/fetch/page p10000',
      measures: 'the ledger, page 10,000 of 20 rows',
      target: 'server',
      path: '/api/coin/fetch/page',
      body: { page: 10_000, size: 20 },
      token: 'admin',
    },
    {
      name: 'audit/fetch/page p0',
      measures: 'the operation log, first page of 20 with the total and each actor',
      target: 'server',
      path: '/api/audit/fetch/page',
      body: { page: 0, size: 20 },
      token: 'admin',
    },
    {
      name: 'audit/fetch/page p10000',
      measures: 'the operation log, page 10,000 of 20 rows',
      target: 'server',
      path: '/api/audit/fetch/page',
      body: { page: 10_000, size: 20 },
      token: 'admin',
    },
    {
      name: 'message/fetch/page/unread',
      measures: "an app user's unread messages as the app asks (page 0, size 1024), 100 users in turn",
      target: 'server',
      path: '/api/message/fetch/page/unread',
      body: { page: 0, size: 1024 },
      token: 'users',
    },
    ...appCallScenarios(options.appData),
    {
      name: 'users/login',
      measures: 'sign-in with the right password: argon2id verify (m=19 MiB, t=2) + a new session row',
      target: 'server',
      path: '/api/users/login',
      body: (n: number) => ({ phone: phones[n % phones.length], password: digest }),
      connections: 4,
      unit: 'sign-ins/s',
    },
  ];
}

/**
 * The console's app switcher sends `app` to every list that takes it, and an app names itself in
 * every call that takes it. So an operator's list whose input has `app` runs twice: as 全部应用
 * (no app, its name unchanged) and as one app (`<name> in <app>`); an app user's call (token
 * 'users' or none) gets `app` in its body. `takesApp` answers from the server's own OpenAPI
 * document (lib/openapi.ts), so a list that gains `app` is measured both ways without a change here.
 */
export function withAppFilter(
  list: Scenario[],
  takesApp: (path: string) => boolean,
  app: string = DEFAULT_APP,
): Scenario[] {
  const withApp = (body: Scenario['body']): Scenario['body'] =>
    typeof body === 'function'
      ? (n: number) => ({ app, ...(body as (n: number) => object)(n) })
      : { app, ...(body as object | undefined) };
  return list.flatMap((scenario) => {
    if (scenario.target !== 'server' || !takesApp(scenario.path)) return [scenario];
    if (scenario.token !== 'admin') return [{ ...scenario, body: withApp(scenario.body) }];
    return [
      scenario,
      {
        ...scenario,
        name: `${scenario.name} in ${app}`,
        measures: `${scenario.measures}; the app switcher set to ${app}`,
        body: withApp(scenario.body),
      },
    ];
  });
}

/** 3 to 11 consecutive digits of a phone, length and start varying with n. */
export function phoneFragment(phone: string, n: number): string {
  const length = 3 + (n % 9);
  const start = (n * 7) % (phone.length - length + 1);
  return phone.slice(start, start + length);
}

/** One character of a nickname, the position varying with n. */
export function oneChar(nickname: string, n: number): string {
  const chars = [...nickname];
  return chars[n % chars.length] ?? '';
}

/** Two consecutive characters of a nickname, the position varying with n. */
export function twoChars(nickname: string, n: number): string {
  const chars = [...nickname];
  if (chars.length <= 2) return chars.join('');
  const start = n % (chars.length - 1);
  return chars.slice(start, start + 2).join('');
}

/** The app-facing hot calls (issue 8): the update check and remote config, full and "unchanged". */
export function appCallScenarios(appData?: { deviceId: string; configTag: string }): Scenario[] {
  return [
    {
      name: 'version/fetch/latest',
      measures: 'app update check: 10,000 device ids in turn on 4 channels, codes 100–299 (rollout hashes included)',
      target: 'server',
      path: '/api/version/fetch/latest',
      body: (n: number) => ({
        app: 'tailor',
        platform: 'android',
        channel: ['huawei', 'xiaomi', 'oppo', 'vivo'][n % 4],
        versionCode: 100 + (n % 200),
        deviceId: `bench-device-${n % 10_000}`,
      }),
    },
    {
      name: 'a11t/fetch full',
      measures:
        'app remote config, the full answer: 20 keys resolved for 10,000 device ids in turn (overrides included)',
      target: 'server',
      path: '/api/a11t/fetch',
      body: (n: number) => ({
        app: 'tailor',
        platform: 'android',
        channel: n % 2 ? 'huawei' : 'xiaomi',
        versionCode: 250,
        deviceId: `bench-device-${n % 10_000}`,
      }),
    },
    {
      name: 'a11t/fetch unchanged',
      measures: 'app remote config sent with its current tag: the short "unchanged" answer',
      target: 'server',
      path: '/api/a11t/fetch',
      body: {
        app: 'tailor',
        platform: 'android',
        channel: 'huawei',
        versionCode: 250,
        deviceId: appData?.deviceId ?? 'bench-device-unchanged',
        tag: appData?.configTag ?? '',
      },
    },
  ];
}

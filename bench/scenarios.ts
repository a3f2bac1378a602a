import { sha256hex } from './lib/fixtures';
import type { Scenario } from './lib/load';

/**
 * The load scenarios, run in this order (each: warm-up, then the measured run). To measure
 * another endpoint, append an entry; `body` may be a function of the request number.
 * `loginPhones` are accounts (status normal) that share `password`.
 */
export function scenarios(options: { loginPhones: string[]; password: string }): Scenario[] {
  const digest = sha256hex(options.password);
  const phones = options.loginPhones;
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

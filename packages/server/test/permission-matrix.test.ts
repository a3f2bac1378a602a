/**
 * The permission matrix (issue 30, done-when 2), generated from the contract like the hostile sweep,
 * so a new admin endpoint is in it without anyone remembering. On each database, for every admin
 * endpoint of the contract:
 * - an operator holding only its permission (ANY_OPERATOR: an operator without a role) gets past
 *   the check: its example, in table order as the contract sweep runs them, reaches the handler,
 *   and a declared write answers 200 with its one operation-log row (checkExample);
 * - an operator holding every permission but its own gets 403 with the permission's name, its
 *   handler never starts, and no row of any table changes (an ANY_OPERATOR endpoint: a signed-in
 *   account that is no operator);
 * - an endpoint taking `app`: an operator of `quote` (every permission) naming `tailor` gets 403.
 * docs/permissions.md「测试：权限矩阵」.
 */
import {
  ANY_OPERATOR,
  type ApiPath,
  type EndpointPermission,
  endpointEntries,
  isPermission,
  type Permission,
  pageOfPermission,
  permissionLabel,
  permissionList,
} from '@appdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectClean } from './clean';
import { snapshotTables, testDb } from './harness';
import { addOperator } from './operators';
import { bookkeeping, callExample, changedTables, checkExample, isAdminRead, isRemoval } from './sweep-checks';
import { sweepContext, uploadWith } from './sweep-fixtures';
import { asSent, defOf, exampleOf, fieldsOf, paths } from './sweep-variants';
import { startWorld, type World } from './world';

const adminPaths = endpointEntries.filter(([, def]) => def.access === 'admin').map(([p]) => p);
const permissionOf = (p: ApiPath) => defOf(p).permission as EndpointPermission;
const everyPermission = permissionList.map((p) => p.key);

/** A permission of the catalog, or the console's plumbing: what every admin endpoint must name. */
const known = (key: EndpointPermission | undefined): key is EndpointPermission =>
  key === ANY_OPERATOR || (key !== undefined && isPermission(key));

/**
 * Every permission but `key`. Holding any action of a page holds its read (withPageReads), so an
 * operator without a page's read holds none of that page's actions.
 */
function allBut(key: Permission): Permission[] {
  const page = pageOfPermission(key);
  return everyPermission.filter((k) => (key.endsWith('.read') ? pageOfPermission(k) !== page : k !== key));
}

/**
 * What the no-escalation rule demands of an example's caller besides the endpoint's permission:
 * an example that hands out roles (`roleIds`) or puts permissions in a role (`permissions`) is
 * called by an operator holding them too, since nobody grants what they do not hold. Still not the
 * permission the endpoint names: whoever lacks only that one is refused all the same.
 */
async function demandedByExamples(key: Permission): Promise<Permission[]> {
  const examples = adminPaths.filter((p) => permissionOf(p) === key).map(exampleOf);
  const roleIds = examples.flatMap((e) => (Array.isArray(e.roleIds) ? (e.roleIds as number[]) : []));
  const roles = roleIds.length
    ? await world.server.app.services.db.selectFrom('roles').select('permissions').where('id', 'in', roleIds).execute()
    : [];
  return [
    ...roles.flatMap((r) => JSON.parse(r.permissions) as Permission[]),
    ...examples.flatMap((e) => (Array.isArray(e.permissions) ? (e.permissions as Permission[]) : [])),
  ];
}

const refusal = (key: EndpointPermission) =>
  key === ANY_OPERATOR ? '需要管理员权限' : `没有「${permissionLabel(key)}」的权限，请联系超级管理员`;

let world: World;
const sweep = sweepContext(() => world);
/** Per permission: an operator holding only it, and one holding every other. */
const holders = new Map<EndpointPermission, string>();
const lackers = new Map<Permission, string>();
/** Every permission, in `quote` only. */
let quoteOperator: string;
let started = 0;
let setUp = 0;

beforeAll(async () => {
  started = performance.now();
  world = await startWorld();
  // Side by side: on PostgreSQL one after another took 60 ms each.
  const keys = [...new Set(adminPaths.map(permissionOf).filter(known))];
  await Promise.all(
    keys.map(async (key) => {
      const permissions = key === ANY_OPERATOR ? [] : [key, ...(await demandedByExamples(key))];
      holders.set(key, await addOperator(world.server, { permissions: [...new Set(permissions)] }));
      if (key !== ANY_OPERATOR) lackers.set(key, await addOperator(world.server, { permissions: allBut(key) }));
    }),
  );
  quoteOperator = await addOperator(world.server, { permissions: everyPermission, apps: ['quote'] });
  setUp = performance.now() - started;
});
afterAll(async () => {
  await world.server.close();
  console.log(
    `permission matrix (${testDb}): ${adminPaths.length} admin endpoints, ${holders.size} permissions, ` +
      `${holders.size + lackers.size + 1} operators set up in ${(setUp / 1000).toFixed(1)} s; ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s in all`,
  );
});

it('every admin endpoint names a permission of the catalog (one without has no operator allowed to call it)', () => {
  expect(adminPaths.filter((p) => !known(permissionOf(p)))).toEqual([]);
});

/** The caller of an example: for an admin endpoint, the operator holding only its permission. */
const holderOf = async (p: ApiPath) =>
  defOf(p).access === 'admin' ? (holders.get(permissionOf(p)) as string) : world.tokenFor(defOf(p).access);

describe('holding only its permission: each example in table order, admin ones by that operator', () => {
  for (const p of paths.filter((p) => !isRemoval(p) && !isAdminRead(p))) checkExample(() => world, p, holderOf);
  for (const p of paths.filter(isAdminRead)) checkExample(() => world, p, holderOf);
});

describe('lacking only its permission: 403, the handler never starts, no row changes', () => {
  let before: string;
  let outsider: string;
  beforeAll(async () => {
    before = await snapshotTables(world.server, bookkeeping);
    outsider = await world.tokenOf(world.callerId);
  });

  for (const p of adminPaths) {
    const key = permissionOf(p);
    const who = key === ANY_OPERATOR ? 'a signed-in account that is no operator' : `every permission but ${key}`;
    it(`${p}: refused to ${who}`, async () => {
      const token = key === ANY_OPERATOR ? outsider : (lackers.get(key) as string);
      const runs = world.server.handlerRuns.get(p) ?? 0;
      const answer = await callExample(world, p, token);
      expectClean(answer);
      expect([answer.body.code, answer.body.message]).toEqual([403, refusal(key)]);
      expect(world.server.handlerRuns.get(p) ?? 0).toBe(runs);
    });
  }

  it('changed no row with any of these calls', async () => {
    expect(changedTables(before, await snapshotTables(world.server, bookkeeping))).toEqual([]);
  });
});

describe('out of scope: an operator of quote naming tailor gets 403 and changes nothing', () => {
  const naming = adminPaths.filter((p) => fieldsOf(p).includes('app'));
  let before: string;
  let tailor: string;
  beforeAll(async () => {
    // The apps' own example registers `quote`; a world without it gets it here.
    if (!(await world.server.app.services.apps.get('quote'))) {
      await sweep.made('/api/apps/make', { code: 'quote', name: '名言' });
    }
    tailor = ((await world.server.app.services.apps.get('tailor')) as { name: string }).name;
    before = await snapshotTables(world.server, bookkeeping);
  });

  it('covers the admin endpoints that name an app', () => {
    expect(naming.length).toBeGreaterThan(0);
  });

  for (const p of naming) {
    it(`${p}: 「没有应用的权限」 for app = tailor`, async () => {
      const body = asSent({ ...exampleOf(p), app: 'tailor' });
      expect(defOf(p).input.safeParse(body).success, 'the example with app = tailor is valid').toBe(true);
      const runs = world.server.handlerRuns.get(p) ?? 0;
      const answer = defOf(p).upload
        ? await uploadWith(sweep, p, body, quoteOperator)
        : await world.server.call(p, body, quoteOperator);
      expectClean(answer);
      expect([answer.body.code, answer.body.message]).toEqual([403, `没有应用「${tailor}」的权限`]);
      expect(world.server.handlerRuns.get(p) ?? 0).toBe(runs);
    });
  }

  it('changed no row with any of these calls', async () => {
    expect(changedTables(before, await snapshotTables(world.server, bookkeeping))).toEqual([]);
  });

  it('lets the same operator through to every read that names quote', async () => {
    const refused: string[] = [];
    for (const p of naming.filter(isAdminRead)) {
      const runs = world.server.handlerRuns.get(p) ?? 0;
      const answer = await world.server.call(p, asSent({ ...exampleOf(p), app: 'quote' }), quoteOperator);
      expectClean(answer);
      if ((world.server.handlerRuns.get(p) ?? 0) !== runs + 1) {
        refused.push(`${p}: ${answer.body.code} ${answer.body.message}`);
      }
    }
    expect(refused).toEqual([]);
  });
});

describe('holding only its permission: the removals, last', () => {
  for (const p of paths.filter(isRemoval)) checkExample(() => world, p, holderOf);
});

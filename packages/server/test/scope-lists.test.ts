/**
 * The permission matrix's list axis (issue 30, done-when 2, "in/out of scope"): every paged admin
 * list of the contract, called without `app` by an operator of `quote` who holds every permission,
 * shows no row of another app, and its total counts none of them ("not even counts").
 * docs/permissions.md「测试：权限矩阵」.
 */
import { type ApiPath, permissionList } from '@appdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectClean } from './clean';
import { addOperator } from './operators';
import { callExample, isRemoval } from './sweep-checks';
import { sweepContext, uploadWith } from './sweep-fixtures';
import { asSent, defOf, exampleOf, fieldsOf, paths } from './sweep-variants';
import { startWorld, type World } from './world';

/**
 * Lists whose rows name an app yet are meant for every operator, each with the reason (as
 * sweep-fixtures.ts `notShown` does); docs/permissions.md's company-wide table.
 */
const sharedAcrossApps: Partial<Record<ApiPath, string>> = {
  '/api/operators/fetch/page':
    'company-wide: the team is the company’s; a row’s apps are that operator’s own limit, not records of the app, and whoever holds 操作员管理 sees every operator (acting on one still needs holding no less)',
  '/api/roles/fetch/page':
    'company-wide: a role’s apps are what it grants, not records of the app; whoever holds 角色管理 sees every role (changing one still needs holding its permissions and apps)',
};

const PAGE = 100;
/** The paged admin lists (their exports are downloads, not lists). */
const lists = paths.filter((p) => defOf(p).access === 'admin' && !defOf(p).download && fieldsOf(p).includes('size'));

/** A list's example without `app`, a page long enough to hold every row the examples made. */
function withoutApp(p: ApiPath): Record<string, unknown> {
  const { app: _app, ...rest } = exampleOf(p);
  return asSent({ ...rest, size: PAGE });
}
/** Lists that cannot be asked without an app: the matrix's out-of-scope test covers them (app = tailor → 403). */
const needApp = lists.filter((p) => !defOf(p).input.safeParse(withoutApp(p)).success);

/** A row of some other app: its `app`, or its `apps` when it lists some and not `quote`. */
function elsewhere(row: unknown): boolean {
  const { app, apps } = (row ?? {}) as { app?: unknown; apps?: unknown };
  if (typeof app === 'string') return app !== 'quote';
  return Array.isArray(apps) && apps.length > 0 && !apps.includes('quote');
}

let world: World;
const sweep = sweepContext(() => world);
let quoteOperator: string;
/** The lists in which the first admin (every app) saw rows of an app other than quote. */
const covered: ApiPath[] = [];

beforeAll(async () => {
  world = await startWorld();
  // Every example in table order (the contract sweep checks them), so that the lists hold records
  // of tailor; the apps' own example registers quote.
  for (const p of paths.filter((p) => !isRemoval(p))) {
    expectClean(await callExample(world, p, await world.tokenFor(defOf(p).access)));
  }
  if (!(await world.server.app.services.apps.get('quote'))) {
    await sweep.made('/api/apps/make', { code: 'quote', name: '名言' });
  }
  // And records of quote, so that its operator's lists are not all empty.
  for (const p of paths.filter((p) => p.endsWith('/make') && 'app' in exampleOf(p))) {
    const body = asSent({ ...exampleOf(p), app: 'quote' });
    const token = await world.tokenFor(defOf(p).access);
    expectClean(defOf(p).upload ? await uploadWith(sweep, p, body, token) : await world.server.call(p, body, token));
  }
  quoteOperator = await addOperator(world.server, { permissions: permissionList.map((p) => p.key), apps: ['quote'] });
});
afterAll(async () => {
  await world.server.close();
});

describe('scope: an operator of quote, listing without naming an app, sees nothing of another app', () => {
  for (const p of lists.filter((p) => !needApp.includes(p) && !sharedAcrossApps[p])) {
    it(`${p}: no row of another app, and a total that counts none`, async () => {
      const body = withoutApp(p);
      const everything = await world.server.call(p, body, await world.tokenFor('admin'));
      const rows = (answer: { body: { data?: unknown } }) => (answer.body.data as { list: unknown[] }).list;
      if (rows(everything).some(elsewhere)) covered.push(p);
      const answer = await world.server.call(p, body, quoteOperator);
      expectClean(answer);
      expect(answer.body.code).toBe(200);
      expect(rows(answer).filter(elsewhere)).toEqual([]);
      const { total } = answer.body.data as { total: number };
      if (rows(answer).length < PAGE) expect(total).toBe(rows(answer).length);
    });
  }

  it('found rows of another app in some lists (else the test above proves nothing)', () => {
    console.log(
      `scope of lists: ${lists.length} paged admin lists; ${needApp.length} need an app (${needApp.join(', ')}); ` +
        `${covered.length} held another app's rows for the first admin: ${covered.join(', ')}`,
    );
    expect(covered.length).toBeGreaterThan(0);
  });
});

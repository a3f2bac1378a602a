import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { AppRegistry } from '../core/apps';
import { type OperatorGrants, reachesApp } from '../core/grants';
import { fail } from './errors';

/**
 * Data scope by app (docs/permissions.md, "Data scope by app"): an operator whose roles reach some
 * apps gets nothing of the others. http/app-check.ts already refuses an `app` named in the input
 * outside the scope; what is here limits what a call names no app for (全部应用) and guards the
 * records a call reaches by id.
 */

/** The apps a query is limited to; undefined: no limit at all (also rows of no app), so no condition is added. */
export type AppScope = readonly string[] | undefined;

/** What the scope needs of a call's context. */
interface Scoped {
  grants: OperatorGrants | null;
}

/**
 * The apps a list, total, export or figure must be limited to: the app the call names (already
 * checked to be in the operator's scope), else the operator's apps, else (an operator of every app,
 * or not an operator's call) no limit. An unscoped operator's queries are the ones they always were.
 */
export function appScope(ctx: Scoped, app?: string | null): AppScope {
  // A batch's items skip app-check.ts: an app outside the scope is still nothing.
  if (app) return reaches(ctx, app) ? [app] : [];
  return ctx.grants?.apps ?? undefined;
}

/** A filter with its `app` turned into the scope it must be limited to (the filters' `apps`). */
export function scoped<F extends { app?: string | null }>(ctx: Scoped, filter: F): F & { apps: AppScope } {
  return { ...filter, apps: appScope(ctx, filter.app) };
}

/**
 * The condition keeping rows of the scope's apps in `column` (a qualified name such as
 * `orders.app`): an equality for one app (the index range it always was), `in` for several, and
 * nothing at all for none (an operator whose roles reach no app).
 */
export function inScope(column: string, apps: readonly string[]) {
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): Expression<SqlBool> => {
    const ref = sql.ref(column);
    if (apps.length === 1) return eb(ref, '=', apps[0]);
    if (apps.length === 0) return sql<SqlBool>`1 = 0`;
    return eb(ref, 'in', apps);
  };
}

/** The same condition as SQL text, for queries written in sql`` (`and` it in). */
export function inScopeSql(column: string, apps: readonly string[]): RawBuilder<SqlBool> {
  if (apps.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(apps)})`;
}

/** True when the scope holds the app (no scope: every app). */
export const scopeHas = (apps: AppScope, app: string | null | undefined): boolean =>
  apps === undefined || (app !== null && app !== undefined && apps.includes(app));

/** True when the call's operator reaches the app (not an operator's call, or a record of no app: true). */
export const reaches = (ctx: Scoped, app: string | null | undefined): boolean =>
  ctx.grants === null || reachesApp(ctx.grants, app);

/**
 * A read of one record by id: a record of an app outside the operator's scope is answered as if it
 * did not exist, with the feature's own message (`订单不存在`), so its id tells nothing.
 */
export function mustSee(ctx: Scoped, app: string | null | undefined, missing: string): void {
  if (!reaches(ctx, app)) throw fail.notFound(missing);
}

/**
 * A change of one record (by id, or of an app's settings): outside the operator's scope the call
 * is refused, 403 「没有应用「名称」的权限」 as app-check.ts answers an `app` named in the input,
 * before anything is written.
 */
export async function mustReach(ctx: Scoped & { apps: AppRegistry }, app: string | null | undefined): Promise<void> {
  if (reaches(ctx, app)) return;
  await ctx.apps.all();
  throw fail.denied(`没有应用「${ctx.apps.nameOf(app)}」的权限`, 'app');
}

import {
  ANY_OPERATOR,
  type EndpointPermission,
  type Permission,
  permissionList,
  withPageReads,
} from '@appdesk/contract/permissions';
import type { Db } from '../db/index';

/**
 * What one operator may do: the union of their roles' permissions (超级管理员: all of them), in
 * which apps (null: every app), and whether a role asks for a second factor at sign-in.
 *
 * Apps: each role reaches every app (its `apps` null) or the ones it lists; an operator reaches
 * the union over their roles, cut down to their own list when they have one (operators.apps). So
 * the scope is per operator, not per role and permission: holding 客服 for `quote` and 财务 for
 * `tailor` gives both roles' permissions in both apps. docs/permissions.md says so to operators.
 */
export interface OperatorGrants {
  readonly permissions: ReadonlySet<Permission>;
  /** The app codes this operator may see and change; null: all apps. */
  readonly apps: readonly string[] | null;
  /** Holds the built-in 超级管理员 role. */
  readonly superAdmin: boolean;
  /** One of their roles requires a second factor (TOTP) at sign-in. */
  readonly requireTotp: boolean;
}

const NOTHING: OperatorGrants = { permissions: new Set(), apps: [], superAdmin: false, requireTotp: false };
const EVERYTHING = new Set(permissionList.map((p) => p.key));

/** True when the grants allow an endpoint's declared permission. */
export function allows(grants: OperatorGrants, permission: EndpointPermission | undefined): boolean {
  if (permission === undefined) return false;
  return permission === ANY_OPERATOR || grants.permissions.has(permission);
}

/** True when the grants reach the app (every operator reaches records of no app). */
export function reachesApp(grants: OperatorGrants, app: string | null | undefined): boolean {
  return grants.apps === null || app === null || app === undefined || grants.apps.includes(app);
}

const parseList = (json: string | null): string[] | null => {
  if (json === null) return null;
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
};

/** Reads one operator's grants from their roles (two point reads on indexed keys). */
export async function readGrants(db: Db, userId: number): Promise<OperatorGrants> {
  const [roles, own] = await Promise.all([
    db
      .selectFrom('operator_roles')
      .innerJoin('roles', 'roles.id', 'operator_roles.role_id')
      .select(['roles.builtin', 'roles.permissions', 'roles.apps', 'roles.require_totp'])
      .where('operator_roles.user_id', '=', userId)
      .execute(),
    db.selectFrom('operators').select('apps').where('user_id', '=', userId).executeTakeFirst(),
  ]);
  if (roles.length === 0) return NOTHING;
  const requireTotp = roles.some((r) => r.require_totp === 1);
  if (roles.some((r) => r.builtin === 'super')) {
    return { permissions: EVERYTHING, apps: null, superAdmin: true, requireTotp };
  }
  const permissions = new Set(withPageReads(roles.flatMap((r) => parseList(r.permissions) ?? [])));
  const roleApps = roles.map((r) => parseList(r.apps));
  let apps: string[] | null = roleApps.includes(null) ? null : [...new Set(roleApps.flatMap((a) => a ?? []))];
  const ownApps = parseList(own?.apps ?? null);
  if (ownApps) apps = apps === null ? ownApps : apps.filter((app) => ownApps.includes(app));
  return { permissions, apps, superAdmin: false, requireTotp };
}

/**
 * How long an instance trusts the grants it read: a change made through this instance applies at
 * once (grantsChanged), one made through another instance within this time.
 */
export const GRANTS_FRESH_MS = 3000;

const kept = new WeakMap<Db, Map<number, { grants: OperatorGrants; at: number; epoch: number }>>();
/** Bumped by every change of roles or operators in this process: kept grants of an older epoch are read again. */
let epoch = 0;

/** An operator's grants, read at most once per GRANTS_FRESH_MS per instance (every admin call asks). */
export async function grantsOf(db: Db, userId: number): Promise<OperatorGrants> {
  let cache = kept.get(db);
  if (!cache) {
    cache = new Map();
    kept.set(db, cache);
  }
  const now = Date.now();
  const hit = cache.get(userId);
  if (hit && hit.epoch === epoch && now - hit.at < GRANTS_FRESH_MS) return hit.grants;
  const readAt = epoch;
  const grants = await readGrants(db, userId);
  cache.set(userId, { grants, at: now, epoch: readAt });
  return grants;
}

/**
 * Forgets every kept grant of this instance. Call it once a change of roles, operators or their
 * apps has committed (ctx.afterCommit), so no call reads the old rows again and keeps them.
 */
export function grantsChanged(): void {
  epoch += 1;
}

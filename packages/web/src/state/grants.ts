import { ANY_OPERATOR, type EndpointPermission, type Permission } from '@appdesk/contract/permissions';
import type { ApiOutput } from '@appdesk/contract/types';
import { useCallback, useMemo } from 'react';
import { useApiQuery } from '../api/hooks';

/** What the signed-in operator may do (roles, 操作员管理): the console shows only that; the server checks every call. */
export type MyGrants = ApiOutput<'/api/operators/fetch/me'>;

const none: readonly Permission[] = [];

/**
 * The operator's permissions and apps, loaded once per sign-in. `can` is false until they have
 * loaded, so a button appears when allowed rather than vanishing after a flash.
 */
export function useGrants() {
  const query = useApiQuery('/api/operators/fetch/me', {});
  const data = query.data;
  const permissions = data?.permissions ?? none;
  const held = useMemo(() => new Set<string>(permissions), [permissions]);
  const can = useCallback(
    (permission: EndpointPermission) => permission === ANY_OPERATOR || held.has(permission),
    [held],
  );
  return { loaded: data !== undefined, can, apps: data?.apps ?? null, superAdmin: data?.superAdmin ?? false };
}

/** True when the operator holds the permission (e.g. `order.refund`). */
export function useCan(permission: EndpointPermission): boolean {
  return useGrants().can(permission);
}

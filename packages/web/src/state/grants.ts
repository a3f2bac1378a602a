import { ANY_OPERATOR, type EndpointPermission, type Permission, permissionLabel } from '@appdesk/contract/permissions';
import type { ApiOutput, ApiPath } from '@appdesk/contract/types';
import { useQuery } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo } from 'react';
import { takeEarly } from '../api/early';
import { callOk } from '../api/request';
import { endpointPermissions } from './endpointPermissions';

/** What the signed-in operator may do (roles, 操作员管理): the console shows only that; the server checks every call. */
export type MyGrants = ApiOutput<'/api/operators/fetch/me'>;

const GRANTS = '/api/operators/fetch/me';
const none: readonly Permission[] = [];

/**
 * The permission an endpoint asks of an operator (the contract's `permission`), or undefined for
 * the endpoints that ask none (public and user calls: the account's own).
 */
export const permissionOfPath = (path: ApiPath): EndpointPermission | undefined => endpointPermissions[path];

/** 「文件管理 · 上传文件」: the permission an endpoint needs, as a disabled control's tooltip names it. */
export function permissionNameOfPath(path: ApiPath): string {
  const permission = permissionOfPath(path);
  return permission && permission !== ANY_OPERATOR ? permissionLabel(permission) : '';
}

/** 「需要「文件管理 · 上传文件」权限，请联系超级管理员」: why a control the operator sees is disabled. */
export const lacking = (path: ApiPath): string => `需要「${permissionNameOfPath(path)}」权限，请联系超级管理员`;

/** True when an operator whose permissions `can` tells may call `path`. */
export function allowsPath(can: (permission: EndpointPermission) => boolean, path: ApiPath): boolean {
  const permission = permissionOfPath(path);
  return permission === undefined || can(permission);
}

/** The operator's grants as the console reads them (`useGrants`). */
export interface Grants {
  /** Read: until then nothing is allowed, and the frame shows no page. */
  loaded: boolean;
  /** They could not be read (offline, server error): the frame offers to try again. */
  failed: boolean;
  /** Being read (again): a 重新检查 button spins. */
  fetching: boolean;
  retry: () => unknown;
  /** Holds the permission (`order.refund`); ANY_OPERATOR always. */
  can: (permission: EndpointPermission) => boolean;
  /** May call the endpoint (`/api/order/refund`): the permission the contract names for it. */
  canCall: (path: ApiPath) => boolean;
  /** The apps the operator may see; null: all. */
  apps: readonly string[] | null;
  superAdmin: boolean;
}

const nothing: Grants = {
  loaded: false,
  failed: false,
  fetching: false,
  retry: () => undefined,
  can: () => false,
  canCall: () => false,
  apps: [],
  superAdmin: false,
};

/**
 * The operator's permissions and apps: asked for beside the console's code (layouts/adminBoot.ts)
 * and read once by the console's frame (AdminShell), which hands them down through GrantsContext.
 * Read again when the operator comes back to the window a minute later, and after a write under
 * /api/operators/ (useApiAction's refresh), so a change of roles shows without signing in again.
 */
export function useGrantsQuery(): Grants {
  const query = useQuery({
    queryKey: [GRANTS, {}],
    queryFn: ({ signal }) => takeEarly(GRANTS, {}) ?? callOk(GRANTS, {}, { signal, silent: true }),
    staleTime: 60_000,
    refetchOnWindowFocus: true,
  });
  const { data, isError, isFetching, refetch } = query;
  const permissions = data?.permissions ?? none;
  const held = useMemo(() => new Set<string>(permissions), [permissions]);
  const can = useCallback(
    (permission: EndpointPermission) => permission === ANY_OPERATOR || held.has(permission),
    [held],
  );
  return useMemo(
    () => ({
      loaded: data !== undefined,
      failed: data === undefined && isError,
      fetching: isFetching,
      retry: refetch,
      can,
      canCall: (path: ApiPath) => allowsPath(can, path),
      apps: data?.apps ?? null,
      superAdmin: data?.superAdmin ?? false,
    }),
    [data, isError, isFetching, refetch, can],
  );
}

/** The grants the console's frame read (nothing allowed outside it, and until they have loaded). */
export const GrantsContext = createContext<Grants>(nothing);

/**
 * What the operator may do. `can` and `canCall` are false until the grants have loaded, so a
 * button appears when allowed rather than vanishing after a flash.
 */
export const useGrants = (): Grants => useContext(GrantsContext);

/** True when the operator holds the permission (e.g. `order.refund`). */
export function useCan(permission: EndpointPermission): boolean {
  return useGrants().can(permission);
}

/**
 * True when the operator may call the endpoint (`/api/order/refund`): its button is shown. The
 * permission is the contract's, the one the server checks, never a key written beside the button.
 */
export function useCanCall(path: ApiPath): boolean {
  return useGrants().canCall(path);
}

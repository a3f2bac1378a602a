import {
  isPermission,
  type Permission,
  type PermissionAction,
  permissionPages,
  withPageReads,
} from '@appdesk/contract/permissions';

/** A page of the catalog and its actions, as the role editor's tree shows them. */
export interface PermissionNode {
  key: string;
  label: string;
  actions: { key: Permission; label: string; sensitive: boolean }[];
}

/** The tree's key of a page (its actions' keys are the permissions themselves). */
export const pageNodeKey = (page: string) => `page:${page}`;

/** Every console page with its actions, in the catalog's (the menu's) order. */
export const permissionTree: PermissionNode[] = Object.entries(permissionPages).map(([page, def]) => ({
  key: pageNodeKey(page),
  label: def.label,
  actions: Object.entries(def.actions as Record<string, PermissionAction>).map(([action, a]) => ({
    key: `${page}.${action}` as Permission,
    label: a.label,
    sensitive: a.sensitive === true,
  })),
}));

/**
 * The permissions a role holds after the tree's boxes changed: the actions checked (a page's box
 * stands for all its actions), each with its page's 查看, as the server stores them.
 */
export const checkedPermissions = (keys: readonly (string | number | bigint)[]): Permission[] =>
  withPageReads(keys.map(String).filter(isPermission));

/** How many of a page's actions are held: 「2/5」 beside its name. */
export function heldOf(node: PermissionNode, held: ReadonlySet<string>): number {
  return node.actions.filter((a) => held.has(a.key)).length;
}

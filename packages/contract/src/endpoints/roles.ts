import { z } from 'zod';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  choice,
  exactTotal,
  id,
  isoTime,
  listExport,
  page,
  paged,
  search,
  size,
  textField,
  worded,
} from '../fields';
import { type BuiltinRole, builtinRoles, type Permission, permissionLabel, permissionList } from '../permissions';
import { rolesRules } from './roles.rules';

/**
 * 角色管理: a role is a set of permissions of the contract's catalog (permissions.ts) and the apps
 * they apply in; operators hold roles (操作员管理). The six built-in roles cannot be removed, and
 * 超级管理员 cannot be changed at all: it holds every permission in every app, now and later.
 * An operator hands out only what they hold themselves (docs/permissions.md#角色与操作员--roles-and-operators).
 */

/** A permission as the console and the operation log name it: 「订单管理 · 退款」. */
export const permissionWords = permissionList.map((p) => ({ value: p.key, label: permissionLabel(p.key) }));
const permissionKeys = permissionList.map((p) => p.key) as [Permission, ...Permission[]];
export const permissionKey = worded(z.enum(permissionKeys, { error: '未知的权限' }), permissionWords).meta({
  title: '权限',
});
export const permissionKeyList = z
  .array(permissionKey, { error: '权限必须是列表' })
  .max(permissionKeys.length, { error: '权限重复' })
  .refine((list) => new Set(list).size === list.length, { error: '权限重复' })
  .meta({ title: '权限' });

/** Which apps a role or an operator reaches: null, every app (also apps registered later); else these codes. */
export const appScope = z
  .array(appCode, { error: '应用必须是列表' })
  .max(100, { error: '应用最多 100 个' })
  .refine((list) => new Set(list).size === list.length, { error: '应用重复' })
  .nullable()
  .meta({ title: '可见应用', description: 'null 为全部应用（包括以后登记的应用）' });

/** How the operation log reads a scope: 全部应用, or the apps listed beside it. */
export const appScopeWords = [
  { value: 'all', label: '全部应用' },
  { value: 'some', label: '指定应用' },
] as const;

/** A role or an operator in the operation log: fields its rows record besides the endpoints' own. */
export const scopeFields = {
  permissions: { label: '权限', values: permissionWords },
  permissionsAdded: { label: '新增的权限', values: permissionWords },
  permissionsRemoved: { label: '取消的权限', values: permissionWords },
  appScope: { label: '应用范围', values: appScopeWords },
  apps: { label: '可见应用', apps: true },
} as const;

const target = auditTarget(
  'role',
  '角色',
  { key: 'roles', open: 'detail={id}' },
  {
    ...scopeFields,
    name: '角色名称',
    description: '角色说明',
    requireTotp: '登录需二次验证',
    operators: '持有该角色的操作员数',
  },
);

const roleId = id.meta({ title: '角色 ID' });
const name = textField(rolesRules.name);
const description = textField(rolesRules.description);
const requireTotp = z
  .boolean({ error: '是否要求二次验证必须是布尔值' })
  .meta({ title: '登录需二次验证', description: '持有该角色的操作员登录时须输入动态验证码' });

/** The built-in roles' keys (permissions.ts builtinRoles), with their names. */
export const builtinRoleKinds = choice(
  '内置角色',
  Object.entries(builtinRoles).map(([value, role]) => ({ value: value as BuiltinRole, label: role.name })),
);

export const roleView = z
  .object({
    id,
    name: z.string().meta({ title: '角色名称' }),
    description: z.string().meta({ title: '角色说明' }),
    builtin: builtinRoleKinds.nullable().meta({ description: '内置角色的代码；自建角色为 null' }),
    permissions: z.array(permissionKey).meta({
      title: '权限',
      description: '含每个页面的「查看」；超级管理员为全部权限',
    }),
    apps: z.array(z.string()).nullable().meta({ title: '可见应用', description: 'null 为全部应用' }),
    requireTotp: z.boolean().meta({ title: '登录需二次验证' }),
    operators: z.number().int().meta({ title: '操作员数', description: '持有该角色的操作员人数' }),
    editable: z.boolean().meta({ description: '能否修改（超级管理员不可修改）' }),
    removable: z.boolean().meta({ description: '能否删除（内置角色不可删除）' }),
    createdAt: isoTime,
    updatedAt: isoTime,
  })
  .meta({ title: '角色' });
export type RoleView = z.infer<typeof roleView>;

const rolesPage = endpoint({
  access: 'admin',
  permission: 'roles.read',
  summary: '分页查询角色（按名称或说明搜索；内置角色在前）',
  input: z.object({ page, size, exactTotal, search }),
  output: paged(roleView),
});

export const rolesEndpoints = {
  '/api/roles/fetch/page': rolesPage,
  '/api/roles/export': listExport(rolesPage, '角色'),
  '/api/roles/fetch/detail': endpoint({
    access: 'admin',
    permission: 'roles.read',
    summary: '读取一个角色',
    input: z.object({ id: roleId }),
    output: z.object({ role: roleView }),
    example: { id: 7 },
  }),
  '/api/roles/make': endpoint({
    access: 'admin',
    permission: 'roles.manage',
    summary: '新建角色（名称不能重复；只能包含自己拥有的权限与应用）',
    input: z.object({
      name,
      description: description.default(''),
      permissions: permissionKeyList,
      apps: appScope.default(null),
      requireTotp: requireTotp.default(false),
    }),
    output: z.object({ role: roleView }),
    example: {
      name: '内容编辑',
      description: '帮助文章与图片库',
      permissions: ['help.edit', 'help.publish', 'unsplash.edit'],
      apps: null,
      requireTotp: false,
    },
    audit: { action: 'roles.make', label: '新建角色', target },
  }),
  '/api/roles/update': endpoint({
    access: 'admin',
    permission: 'roles.manage',
    summary: '修改角色（只改传入的字段；超级管理员不可修改）',
    input: z.object({
      id: roleId,
      name: name.optional(),
      description: description.optional(),
      permissions: permissionKeyList.optional(),
      apps: appScope.optional(),
      requireTotp: requireTotp.optional(),
    }),
    output: z.object({ role: roleView }),
    example: { id: 7, description: '帮助文章、图片库与音效库', permissions: ['help.edit', 'soundeffect.edit'] },
    audit: { action: 'roles.update', label: '修改角色', target },
  }),
  '/api/roles/remove': endpoint({
    access: 'admin',
    permission: 'roles.manage',
    summary: '删除角色（内置角色不能删除；仍有操作员持有的角色须先取消分配）',
    input: z.object({ id: roleId }),
    output: z.object({ id }),
    example: { id: 7 },
    audit: { action: 'roles.remove', label: '删除角色', target },
  }),
};

export default rolesEndpoints;
type RolesEndpoints = typeof rolesEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends RolesEndpoints {}
}

import { z } from 'zod';
import { auditTarget, endpoint } from '../endpoint';
import {
  choice,
  empty,
  exactTotal,
  id,
  isoTime,
  listExport,
  page,
  paged,
  phone,
  reasonNote,
  search,
  size,
  userId,
} from '../fields';
import { ANY_OPERATOR } from '../permissions';
import { appScope, builtinRoleKinds, permissionKey, scopeFields } from './roles';
import { adminUser, nickname, userTarget } from './users';

/** What the signed-in operator may do, for the console to show only that (the server checks every call). */
export const myGrants = z
  .object({
    permissions: z.array(permissionKey).meta({ title: '权限', description: '权限键，如 order.refund' }),
    apps: z
      .array(z.string())
      .nullable()
      .meta({ title: '可见应用', description: '可查看与操作的应用代码；null 为全部应用' }),
    superAdmin: z.boolean().meta({ title: '超级管理员' }),
  })
  .meta({ title: '我的权限' });
export type MyGrants = z.infer<typeof myGrants>;

/** An operator's account state in 操作员管理's words (a blocked account is a disabled operator). */
export const operatorStatuses = [
  { value: 'normal', label: '正常' },
  { value: 'blocked', label: '已停用' },
] as const;

/**
 * 操作员管理: the accounts that may enter the console (users.is_admin = 1), their roles and their
 * own limit on apps. An operator hands out only roles whose permissions and apps they hold
 * themselves, acts only on operators who hold no more than they do, and the last enabled
 * 超级管理员 cannot lose the role, be disabled or stop being an operator.
 */
const target = auditTarget(
  'operator',
  '操作员',
  { key: 'operators', open: 'search={id}&detail={id}' },
  {
    ...scopeFields,
    // An operator's own limit: none (their roles' apps), or these apps within them.
    appScope: {
      label: '应用范围',
      values: [
        { value: 'all', label: '按角色（不另外限定）' },
        { value: 'some', label: '指定应用' },
      ],
    },
    roles: '角色',
    status: { label: '状态', values: operatorStatuses },
    mustChangePassword: '需修改密码',
  },
);

const operatorId = userId.meta({ title: '操作员 ID' });
const roleIds = z
  .array(id.meta({ title: '角色 ID' }), { error: '角色必须是列表' })
  .max(50, { error: '角色最多 50 个' })
  .refine((list) => new Set(list).size === list.length, { error: '角色重复' })
  .meta({ title: '角色' });
/** Why an operator is disabled, enabled or has a new password; goes to the operation log (the console asks for it). */
const reason = reasonNote.optional().meta({ title: '原因', description: '记入操作日志' });
const operatorScope = appScope.meta({
  title: '可见应用',
  description: '在角色可见的应用之内再限定；null 为不另外限定',
});

/** A role as an operator's row names it. */
const heldRole = z.object({ id, name: z.string(), builtin: builtinRoleKinds.nullable() });

export const operatorView = z
  .object({
    id,
    phone: z.string().meta({ title: '手机号', description: '脱敏' }),
    name: z.string().meta({ title: '显示名' }),
    nickname: z.string().meta({ title: '昵称' }),
    status: choice('状态', operatorStatuses),
    roles: z.array(heldRole).meta({ title: '角色' }),
    apps: z
      .array(z.string())
      .nullable()
      .meta({ title: '可见应用', description: '操作员自己的限定；null 为不另外限定' }),
    superAdmin: z.boolean().meta({ title: '超级管理员' }),
    mustChangePassword: z.boolean().meta({ title: '需修改密码', description: '还在用初始密码' }),
    lastLoginAt: isoTime.nullable().meta({ title: '最近登录' }),
    createdAt: isoTime.meta({ title: '注册时间' }),
  })
  .meta({ title: '操作员' });
export type OperatorView = z.infer<typeof operatorView>;

/** A role as the operator editor offers it: whether the caller may hand it out, and why not. */
export const roleOption = z.object({
  id,
  name: z.string(),
  description: z.string(),
  builtin: builtinRoleKinds.nullable(),
  apps: z.array(z.string()).nullable(),
  grantable: z.boolean().meta({ description: '当前操作员能否授予（只能授予自己拥有的权限与应用）' }),
  why: z.string().nullable().meta({ description: '不能授予的原因' }),
});

const initialPassword = z.object({
  id,
  phone: z.string().meta({ title: '手机号' }),
  password: z.string().meta({ title: '初始密码', description: '只显示这一次；登录后须先修改' }),
});

const operatorsPage = endpoint({
  access: 'admin',
  permission: 'operators.read',
  summary: '分页查询操作员（手机号脱敏；按手机号、昵称或 ID 搜索，按状态、角色筛选）',
  input: z.object({
    page,
    size,
    exactTotal,
    search,
    status: choice('状态', [{ value: 'all', label: '全部' }, ...operatorStatuses]).default('all'),
    roleId: id.meta({ title: '角色 ID' }).optional(),
  }),
  output: paged(operatorView),
});

export const operatorEndpoints = {
  '/api/operators/fetch/me': endpoint({
    access: 'admin',
    permission: ANY_OPERATOR,
    summary: '当前操作员的权限与可见应用（控制台据此显示菜单与按钮；每个接口在服务器上另行检查）',
    input: empty,
    output: myGrants,
  }),
  // 用户管理's 设为管理员 (spec): an operator with no role until 操作员管理 gives one.
  '/api/users/update/admin': endpoint({
    access: 'admin',
    permission: 'operators.manage',
    summary:
      '设置或取消管理员：设为管理员即成为没有角色的操作员（能进入后台，分配角色前什么也看不到）；取消则收回全部角色并结束其会话（最后一位超级管理员不能取消）',
    input: z.object({
      id: userId,
      isAdmin: z.boolean({ error: '是否管理员必须是布尔值' }).meta({ title: '是否管理员' }),
    }),
    output: z.object({ user: adminUser }),
    // User 4, not 3: the users' examples after it act on 3 as an ordinary account.
    example: { id: 4, isAdmin: true },
    audit: { action: 'users.update.admin', label: '设置管理员', target: userTarget },
  }),
  '/api/operators/fetch/page': operatorsPage,
  // Phones masked, as in the list: the whole number is never exported.
  '/api/operators/export': listExport(operatorsPage, '操作员'),
  '/api/operators/fetch/roles': endpoint({
    access: 'admin',
    permission: 'operators.read',
    summary: '可分配的角色（标明当前操作员能否授予）',
    input: empty,
    output: z.object({ list: z.array(roleOption) }),
  }),
  '/api/operators/make': endpoint({
    access: 'admin',
    permission: 'operators.manage',
    summary: '新建操作员账号（随机初始密码只返回这一次，首次登录须先修改）',
    input: z.object({
      phone,
      nickname,
      roleIds,
      apps: operatorScope.default(null),
    }),
    output: z.object({ operator: operatorView, password: z.string().meta({ title: '初始密码' }) }),
    example: { phone: '13700000001', nickname: '客服小王', roleIds: [3], apps: ['tailor'] },
    audit: { action: 'operators.make', label: '新建操作员', target },
  }),
  '/api/operators/update': endpoint({
    access: 'admin',
    permission: 'operators.manage',
    summary: '修改操作员的昵称、角色与可见应用（只改传入的字段）',
    input: z.object({
      id: operatorId,
      nickname: nickname.optional(),
      roleIds: roleIds.optional(),
      apps: operatorScope.optional(),
    }),
    output: z.object({ operator: operatorView }),
    example: { id: 5, nickname: '运营小李', roleIds: [2], apps: null },
    audit: { action: 'operators.update', label: '修改操作员', target },
  }),
  '/api/operators/disable': endpoint({
    access: 'admin',
    permission: 'operators.manage',
    summary: '停用操作员（封禁账号，其全部会话立即结束）',
    input: z.object({ id: operatorId, reason }),
    output: z.object({ operator: operatorView }),
    example: { id: 5, reason: '已离职' },
    audit: { action: 'operators.disable', label: '停用操作员', target },
  }),
  '/api/operators/enable': endpoint({
    access: 'admin',
    permission: 'operators.manage',
    summary: '启用已停用的操作员',
    input: z.object({ id: operatorId, reason }),
    output: z.object({ operator: operatorView }),
    example: { id: 5, reason: '重新入职' },
    audit: { action: 'operators.enable', label: '启用操作员', target },
  }),
  '/api/operators/reset/password': endpoint({
    access: 'admin',
    permission: 'operators.manage',
    summary: '重置操作员的密码（新的随机初始密码只返回这一次；其会话立即结束，下次登录须先修改）',
    input: z.object({ id: operatorId, reason }),
    output: initialPassword,
    example: { id: 5, reason: '忘记密码' },
    audit: { action: 'operators.reset.password', label: '重置操作员密码', target },
  }),
};

export default operatorEndpoints;
type OperatorEndpoints = typeof operatorEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends OperatorEndpoints {}
}

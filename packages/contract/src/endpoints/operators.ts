import { z } from 'zod';
import { endpoint } from '../endpoint';
import { empty, userId } from '../fields';
import { ANY_OPERATOR, permissionList } from '../permissions';
import { adminUser, userTarget } from './users';

const permissionKeys = permissionList.map((p) => p.key) as [string, ...string[]];

/** What the signed-in operator may do, for the console to show only that (the server checks every call). */
export const myGrants = z
  .object({
    permissions: z.array(z.enum(permissionKeys)).meta({ title: '权限', description: '权限键，如 order.refund' }),
    apps: z
      .array(z.string())
      .nullable()
      .meta({ title: '可见应用', description: '可查看与操作的应用代码；null 为全部应用' }),
    superAdmin: z.boolean().meta({ title: '超级管理员' }),
  })
  .meta({ title: '我的权限' });
export type MyGrants = z.infer<typeof myGrants>;

export const operatorEndpoints = {
  '/api/operators/fetch/me': endpoint({
    access: 'admin',
    permission: ANY_OPERATOR,
    summary: '当前操作员的权限与可见应用（控制台据此显示菜单与按钮；每个接口在服务器上另行检查）',
    input: empty,
    output: myGrants,
  }),
  // 用户管理's 设为管理员 (spec): an operator now, with the roles given in 操作员管理.
  '/api/users/update/admin': endpoint({
    access: 'admin',
    permission: 'operators.manage',
    summary: '设置或取消管理员（不能取消自己，也不能取消最后一位管理员）',
    input: z.object({
      id: userId,
      isAdmin: z.boolean({ error: '是否管理员必须是布尔值' }).meta({ title: '是否管理员' }),
    }),
    output: z.object({ user: adminUser }),
    example: { id: 3, isAdmin: true },
    audit: { action: 'users.update.admin', label: '设置管理员', target: userTarget },
  }),
};

export default operatorEndpoints;
type OperatorEndpoints = typeof operatorEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends OperatorEndpoints {}
}

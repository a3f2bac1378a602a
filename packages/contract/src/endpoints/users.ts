import { z } from 'zod';
import { apps, channels } from '../constants';
import { endpoint } from '../endpoint';
import {
  empty,
  id,
  isoTime,
  order,
  page,
  paged,
  passwordDigest,
  phone,
  reasonNote,
  search,
  size,
  text,
  userId,
} from '../fields';

export const userStatus = z.enum(['normal', 'blocked'], { error: '状态只能是 normal 或 blocked' });

/** The signed-in account as the client stores it (spec: at least name and isAdmin). */
export const currentUser = z
  .object({
    id,
    phone: z.string(),
    name: z.string().meta({ title: '显示名', description: '昵称，未设置时为脱敏手机号' }),
    nickname: z.string(),
    avatar: z.string().nullable(),
    email: z.string().nullable(),
    emailVerified: z.boolean(),
    isAdmin: z.boolean(),
    status: userStatus,
    coins: z.number().int(),
    vipExpiresAt: isoTime.nullable(),
    createdAt: isoTime,
  })
  .meta({ title: '当前用户' });
export type CurrentUser = z.infer<typeof currentUser>;

/** A user as operators see it in lists and the detail drawer. */
export const adminUser = currentUser
  .extend({
    app: z.string().nullable(),
    channel: z.string().nullable(),
    lastLoginAt: isoTime.nullable(),
    lastActiveAt: isoTime.nullable(),
  })
  .meta({ title: '用户' });
export type AdminUser = z.infer<typeof adminUser>;

export const userListFilter = z.object({
  status: z
    .enum(['all', 'normal', 'blocked', 'admin'], { error: '状态筛选只能是 all、normal、blocked 或 admin' })
    .default('all')
    .meta({ title: '状态' }),
  search,
  sort: z
    .enum(['createdAt', 'lastActiveAt', 'coins'], { error: '排序字段只能是 createdAt、lastActiveAt 或 coins' })
    .default('createdAt')
    .meta({ title: '排序字段' }),
  order,
});
export type UserListFilter = z.input<typeof userListFilter>;

const appCode = z
  .enum(apps.map((a) => a.value) as [string, ...string[]], { error: '未知的应用' })
  .meta({ title: '应用' });
const channelCode = z
  .enum(channels.map((c) => c.value) as [string, ...string[]], { error: '未知的渠道' })
  .meta({ title: '渠道' });

export const nickname = text('昵称', 1, 20);
export const email = z
  .email({ error: '邮箱格式不正确' })
  .max(100, { error: '邮箱最多 100 个字符' })
  .meta({ title: '邮箱' });

export const userEndpoints = {
  '/api/users/login': endpoint({
    access: 'public',
    summary: '手机号 + 密码登录，返回令牌',
    input: z.object({ phone, password: passwordDigest }),
    output: z.object({ token: z.string(), user: currentUser }),
  }),
  '/api/users/logout': endpoint({
    access: 'user',
    summary: '退出登录（吊销当前令牌）',
    input: empty,
    output: z.null(),
  }),
  '/api/users/fetch/info': endpoint({
    access: 'user',
    summary: '读取当前登录用户',
    input: empty,
    output: z.object({ user: currentUser }),
  }),
  '/api/users/update/password': endpoint({
    access: 'user',
    summary: '修改密码（吊销本账号的其他会话）',
    input: z.object({
      old: passwordDigest.meta({ title: '原密码' }),
      refresh: passwordDigest.meta({ title: '新密码' }),
    }),
    output: z.null(),
  }),
  '/api/users/validate/email': endpoint({
    access: 'public',
    summary: '通过邮件中的链接验证邮箱',
    input: z.object({
      token: z
        .string({ error: '验证码必须是字符串' })
        .regex(/^[A-Za-z0-9_-]{20,100}$/, { error: '验证链接无效' })
        .meta({ title: '验证令牌' }),
    }),
    output: z.object({ email: z.string() }),
  }),
};

/** App-facing account calls. */
export const accountEndpoints = {
  '/api/users/register': endpoint({
    access: 'public',
    summary: 'App 用户用手机号注册（记录来源应用与渠道），返回令牌',
    input: z.object({ phone, password: passwordDigest, app: appCode, channel: channelCode.default('other') }),
    output: z.object({ token: z.string(), user: currentUser }),
  }),
  '/api/users/update/info': endpoint({
    access: 'user',
    summary: '修改自己的资料（昵称、邮箱；新邮箱需通过邮件验证）',
    input: z.object({ nickname: nickname.optional(), email: email.optional() }),
    output: z.object({ user: currentUser, emailSent: z.boolean() }),
  }),
  '/api/users/update/avatar': endpoint({
    access: 'user',
    summary: '上传自己的头像',
    input: empty,
    output: z.object({ user: currentUser }),
    upload: { field: 'avatar', kind: 'image' },
  }),
};

/** Operator tools for accounts. */
export const userAdminEndpoints = {
  '/api/users/fetch/page': endpoint({
    access: 'admin',
    summary: '分页查询用户（状态、手机号/昵称/ID 搜索、排序）',
    input: userListFilter.extend({ page, size }),
    output: paged(adminUser),
  }),
  '/api/users/fetch/page/box': endpoint({
    access: 'admin',
    summary: '各状态的用户数（用于状态标签页）',
    input: empty,
    output: z.object({ all: z.number(), normal: z.number(), blocked: z.number(), admin: z.number() }),
  }),
  '/api/users/export': endpoint({
    access: 'admin',
    summary: '导出筛选后的全部用户为 Excel',
    input: userListFilter,
    output: z.unknown(),
    download: 'xlsx',
  }),
  '/api/users/fetch/detail': endpoint({
    access: 'admin',
    summary: '查看用户资料',
    input: z.object({ id: userId }),
    output: z.object({ user: adminUser }),
  }),
  '/api/users/fetch/other/info': endpoint({
    access: 'admin',
    summary: '查看用户的最近金币流水与登录会话',
    input: z.object({ id: userId }),
    output: z.object({
      coinRecords: z.array(
        z.object({
          id,
          delta: z.number(),
          balanceAfter: z.number(),
          reason: z.string(),
          note: z.string().nullable(),
          createdAt: isoTime,
        }),
      ),
      sessions: z.array(
        z.object({
          id,
          ip: z.string().nullable(),
          userAgent: z.string().nullable(),
          createdAt: isoTime,
          lastUsedAt: isoTime,
        }),
      ),
    }),
  }),
  '/api/users/block': endpoint({
    access: 'admin',
    summary: '封禁用户（立即吊销其全部会话）',
    input: z.object({ id: userId }),
    output: z.object({ user: adminUser }),
  }),
  '/api/users/unblock': endpoint({
    access: 'admin',
    summary: '解除封禁',
    input: z.object({ id: userId }),
    output: z.object({ user: adminUser }),
  }),
  '/api/users/update/admin': endpoint({
    access: 'admin',
    summary: '设置或取消管理员（不能取消自己，也不能取消最后一位管理员）',
    input: z.object({
      id: userId,
      isAdmin: z.boolean({ error: '是否管理员必须是布尔值' }).meta({ title: '是否管理员' }),
    }),
    output: z.object({ user: adminUser }),
  }),
  '/api/users/update/coins': endpoint({
    access: 'admin',
    summary: '管理员调整用户金币（记入流水）',
    input: z.object({
      id: userId,
      delta: z
        .number({ error: '调整数量必须是数字' })
        .int({ error: '调整数量必须是整数' })
        .min(-1_000_000_000, { error: '调整数量过小' })
        .max(1_000_000_000, { error: '调整数量过大' })
        .refine((v) => v !== 0, { error: '调整数量不能为 0' })
        .meta({ title: '调整数量' }),
      reason: reasonNote,
    }),
    output: z.object({ coins: z.number(), recordId: id }),
  }),
  '/api/users/generate': endpoint({
    access: 'admin',
    summary: '批量生成账号（每个账号一个随机初始密码，结果只返回这一次）',
    input: z.object({
      count: z
        .number({ error: '数量必须是数字' })
        .int({ error: '数量必须是整数' })
        .min(1, { error: '数量至少为 1' })
        .max(1000, { error: '数量最多 1000' })
        .meta({ title: '数量' }),
      phonePrefix: z
        .string({ error: '号段必须是字符串' })
        .regex(/^(|1[3-9]\d{0,8})$/, { error: '号段应为以 13–19 开头、最多 10 位的数字，留空则随机' })
        .default('')
        .meta({ title: '号段' }),
      app: appCode.default('tailor'),
      channel: channelCode.default('other'),
    }),
    output: z.object({ accounts: z.array(z.object({ id, phone: z.string(), password: z.string() })) }),
  }),
};

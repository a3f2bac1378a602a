import { z } from 'zod';
import { userListStatuses, userVipSegments } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  channelCode,
  choice,
  dateTimeField,
  empty,
  exactTotal,
  id,
  integerField,
  isoTime,
  order,
  page,
  paged,
  passwordDigest,
  phone,
  reasonNote,
  search,
  size,
  sortBy,
  textField,
  userId,
} from '../fields';
import { isReservedPhone, reservedPhonePrefix, rules, USER_BATCH_MAX, valuesOf } from '../rules';
import { messageContent, messageTitle } from './message';
import { passwordChangeInput, passwordChangeWords } from './password';

/** Account states and the filters of the users list, with the labels operators see. */
export const userStatuses = [
  { value: 'normal', label: '正常' },
  { value: 'blocked', label: '已封禁' },
] as const;
export const userStatus = choice('状态', userStatuses);
/** The VIP segment of the users list: VIP time still ahead, lapsed, or never had any. */
export const userVipStates = valuesOf(userVipSegments);

/** An account in the operation log (its own endpoints, VIP changes and operators' sign-ins). */
export const userTarget = auditTarget(
  'user',
  '用户',
  { key: 'users', open: 'search={id}&detail={id}' },
  {
    coins: '金币余额',
    delta: '金币变动',
    vipExpiresAt: '会员到期时间',
    isAdmin: '管理员',
    roles: '角色',
    mustChangePassword: '需修改密码',
    revoked: '下线的会话数',
    ...passwordChangeWords,
    accounts: '生成的账号',
    phonePrefix: '号段',
    // The command-line tools (`npm run admin`) say so in the rows they write.
    via: { label: '操作途径', values: [{ value: 'command-line', label: '命令行' }] },
  },
);
const target = userTarget;
/** Digests of the passwords the generated tests give their accounts ('Admin12345', 'User12345', 'User54321'). */
const digests = {
  admin: '8122cba12b897aa5546baf90b6c82c9f646f976b3555033cbc5e0b72d4f7a5bc',
  user: '6e7fb5f60d505b9480ad515a14b63194fa8bc3883acb3d9fbe3f9010690fcb0c',
  changed: '0785bdc424a31f371a823b66f403d448d67258cfbd26afe1d1bc4326b8b98102',
};

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
    // Per app: the session's (or asked) app's; operators' lists: the listed app's, else the latest of any app's.
    vipExpiresAt: isoTime.nullable().meta({ title: '会员到期时间', description: '会员按应用计' }),
    createdAt: isoTime,
    mustChangePassword: z.boolean().meta({
      title: '需修改密码',
      description: '初始密码或被管理员重置的密码：改密前其他接口都回答 428',
    }),
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
    blockedUntil: isoTime.nullable().meta({
      title: '封禁截止',
      description: '定时封禁到此时刻自动解除；永久封禁或未封禁时为 null',
    }),
  })
  .meta({ title: '用户' });
export type AdminUser = z.infer<typeof adminUser>;

const dateTime = (title: string) => dateTimeField(title).optional();

export const userListFilter = z.object({
  status: choice('状态', userListStatuses).default('all'),
  search,
  channel: channelCode.optional(),
  app: appCode.optional(),
  from: dateTime('注册开始时间'),
  to: dateTime('注册结束时间'),
  activeFrom: dateTime('活跃开始时间'),
  activeTo: dateTime('活跃结束时间'),
  vip: choice('会员状态', userVipSegments).optional(),
  sort: sortBy(['createdAt', 'lastActiveAt', 'coins']),
  order,
});
export type UserListFilter = z.input<typeof userListFilter>;

export const nickname = textField(rules.nickname);

/** Why an operator takes a dangerous action on an account; goes to the operation log. */
// Optional so the old client's calls (spec: `id` only) keep working; the console always asks for one.
const actionReason = reasonNote.optional().meta({ title: '原因', description: '记入操作日志（控制台必填）' });
/** Until when a block lasts; absent or null: until an operator lifts it. */
const blockUntil = z.iso
  .datetime({ offset: true, error: '封禁截止时间格式不正确' })
  .nullable()
  .default(null)
  .meta({ title: '封禁截止', description: '到此时刻自动解封；不填为永久封禁' });
const userIds = z
  .array(userId, { error: '用户 ID 列表必须是数组' })
  .min(1, { error: '请至少选择一个用户' })
  .max(USER_BATCH_MAX, { error: `一次最多选择 ${USER_BATCH_MAX} 个用户` })
  .meta({ title: '用户 ID 列表' });
/** A phone a person signs up with: the reserved range of generated accounts is refused. */
const ownPhone = phone.refine((p) => !isReservedPhone(p), {
  error: `${reservedPhonePrefix} 号段保留给后台生成的账号，请使用本人手机号注册`,
});
export const email = z
  .email({ error: '邮箱格式不正确' })
  .max(rules.email.max, { error: `邮箱最多 ${rules.email.max} 个字符` })
  .meta({ title: rules.email.title });

export const userEndpoints = {
  '/api/users/login': endpoint({
    access: 'public',
    summary: '手机号 + 密码登录，返回令牌（会话属于所登录的应用，不填为默认应用）',
    input: z.object({
      phone,
      password: passwordDigest,
      app: appCode.optional().meta({ title: '应用', description: '登录的应用；不填为默认应用（滚动截屏）' }),
    }),
    output: z.object({ token: z.string(), user: currentUser }),
    example: { phone: '13800000000', password: digests.admin },
  }),
  '/api/users/logout': endpoint({
    access: 'user',
    openDuringPasswordChange: true,
    summary: '退出登录（吊销当前令牌）',
    input: empty,
    output: z.null(),
  }),
  '/api/users/fetch/info': endpoint({
    access: 'user',
    openDuringPasswordChange: true,
    summary: '读取当前登录用户（会员为本会话所属应用的，或所填应用的）',
    input: z.object({ app: appCode.optional().meta({ title: '应用', description: '不填为本会话所属的应用' }) }),
    output: z.object({ user: currentUser }),
  }),
  '/api/users/update/password': endpoint({
    access: 'user',
    openDuringPasswordChange: true,
    summary: '修改密码（吊销本账号的其他会话；操作员须同时提交新密码原文以检查密码规则）',
    input: passwordChangeInput,
    output: z.null(),
    example: { old: digests.user, refresh: digests.changed },
    audit: { action: 'users.update.password', label: '修改密码', target },
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
    example: { token: 'an-email-token-that-was-never-sent' },
  }),
};

/** App-facing account calls. */
export const accountEndpoints = {
  '/api/users/register': endpoint({
    access: 'public',
    summary: 'App 用户用手机号注册（记录来源应用与渠道），返回令牌',
    input: z.object({ phone: ownPhone, password: passwordDigest, app: appCode, channel: channelCode.default('other') }),
    output: z.object({ token: z.string(), user: currentUser }),
    example: { phone: '13912345678', password: digests.user, app: 'tailor', channel: 'huawei' },
    idempotent: true,
  }),
  '/api/users/update/info': endpoint({
    access: 'user',
    summary: '修改自己的资料（昵称、邮箱；新邮箱需通过邮件验证）',
    input: z.object({ nickname: nickname.optional(), email: email.optional() }),
    output: z.object({ user: currentUser, emailSent: z.boolean() }),
    example: { nickname: '小明' },
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
    permission: 'users.read',
    summary: '分页查询用户（状态、手机号/昵称/ID 搜索、渠道、应用、注册与活跃时间、会员状态、排序）',
    input: userListFilter.extend({ page, size, exactTotal }),
    output: paged(adminUser),
  }),
  '/api/users/fetch/page/box': endpoint({
    access: 'admin',
    permission: 'users.read',
    summary: '各状态的用户数（用于状态标签页）',
    input: empty,
    output: z.object({ all: z.number(), normal: z.number(), blocked: z.number(), admin: z.number() }),
  }),
  '/api/users/export': endpoint({
    access: 'admin',
    permission: 'users.export',
    summary: '导出筛选后的全部用户为 Excel',
    input: userListFilter.extend({ ids: userIds.optional().meta({ title: '只导出这些用户' }) }),
    output: z.unknown(),
    download: 'xlsx',
  }),
  '/api/users/fetch/detail': endpoint({
    access: 'admin',
    permission: 'users.read',
    summary: '查看用户资料（含各应用的会员到期时间）',
    input: z.object({ id: userId }),
    output: z.object({
      user: adminUser,
      vips: z
        .array(z.object({ app: appCode, expiresAt: isoTime }))
        .meta({ title: '各应用会员', description: '开通过会员的每个应用及其到期时间' }),
    }),
    example: { id: 3 },
  }),
  '/api/users/fetch/phone': endpoint({
    access: 'admin',
    permission: 'users.revealPhone',
    summary: '查看用户的完整手机号（列表与详情中默认脱敏；每次查看记入操作日志）',
    input: z.object({ id: userId }),
    output: z.object({ phone: z.string() }),
    example: { id: 3 },
    audit: { action: 'users.fetch.phone', label: '查看手机号', target },
  }),
  '/api/users/fetch/other/info': endpoint({
    access: 'admin',
    permission: 'users.read',
    summary: '查看用户的最近金币流水与登录会话',
    input: z.object({ id: userId }),
    example: { id: 3 },
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
    permission: 'users.block',
    summary: '封禁用户（立即吊销其全部会话；可设截止时间，到期自动解封）',
    input: z.object({ id: userId, reason: actionReason, until: blockUntil }),
    output: z.object({ user: adminUser }),
    example: { id: 3, reason: '发布违规内容', until: '2099-01-01T00:00:00.000Z' },
    audit: { action: 'users.block', label: '封禁用户', target },
  }),
  '/api/users/unblock': endpoint({
    access: 'admin',
    permission: 'users.block',
    summary: '解除封禁',
    input: z.object({ id: userId, reason: actionReason }),
    output: z.object({ user: adminUser }),
    example: { id: 3, reason: '申诉通过' },
    audit: { action: 'users.unblock', label: '解除封禁', target },
  }),
  '/api/users/logout/all': endpoint({
    access: 'admin',
    permission: 'users.logout',
    summary: '强制下线：吊销该用户的全部登录会话',
    input: z.object({ id: userId, reason: actionReason }),
    output: z.object({ revoked: z.number().int() }),
    example: { id: 3, reason: '账号疑似被盗' },
    audit: { action: 'users.logout.all', label: '强制下线', target },
  }),
  '/api/users/block/batch': endpoint({
    access: 'admin',
    permission: 'users.block',
    summary: `批量封禁所选用户（最多 ${USER_BATCH_MAX} 个；跳过自己）`,
    input: z.object({ ids: userIds, reason: actionReason, until: blockUntil }),
    output: z.object({ count: z.number().int() }),
    example: { ids: [3], reason: '批量注册的垃圾账号' },
    audit: { action: 'users.block.batch', label: '批量封禁', target },
  }),
  '/api/users/unblock/batch': endpoint({
    access: 'admin',
    permission: 'users.block',
    summary: `批量解除所选用户的封禁（最多 ${USER_BATCH_MAX} 个）`,
    input: z.object({ ids: userIds, reason: actionReason }),
    output: z.object({ count: z.number().int() }),
    example: { ids: [3], reason: '误封' },
    audit: { action: 'users.unblock.batch', label: '批量解封', target },
  }),
  '/api/users/message/batch': endpoint({
    access: 'admin',
    permission: 'users.message',
    summary: `给所选用户各发一条站内消息（最多 ${USER_BATCH_MAX} 个）`,
    input: z.object({ ids: userIds, title: messageTitle, content: messageContent }),
    output: z.object({ count: z.number().int() }),
    example: { ids: [3], title: '活动通知', content: '您已获得活动奖励，请查收。' },
    audit: { action: 'users.message.batch', label: '批量发消息', target },
  }),
  '/api/users/update/coins': endpoint({
    access: 'admin',
    permission: 'users.coins',
    summary: '管理员调整用户金币（记入流水）',
    input: z.object({
      id: userId,
      delta: integerField(rules.coinDelta),
      reason: reasonNote,
    }),
    output: z.object({ coins: z.number(), recordId: id }),
    example: { id: 3, delta: 100, reason: '活动奖励' },
    audit: { action: 'users.update.coins', label: '调整金币', target },
    idempotent: true,
  }),
  '/api/users/reset/password': endpoint({
    access: 'admin',
    permission: 'users.resetPassword',
    summary: '重置用户密码（生成随机初始密码，只返回这一次；吊销其全部会话，下次登录须先改密）',
    input: z.object({ id: userId, reason: actionReason }),
    output: z.object({
      id,
      phone: z.string().meta({ title: '手机号', description: '脱敏' }),
      password: z.string(),
    }),
    example: { id: 3, reason: '用户忘记密码，核实身份后重置' },
    audit: { action: 'users.reset.password', label: '重置密码', target },
  }),
  '/api/users/generate': endpoint({
    access: 'admin',
    permission: 'users.generate',
    summary: `批量生成账号（保留号段 ${reservedPhonePrefix} 开头的手机号，每个账号一个随机初始密码，结果只返回这一次）`,
    input: z.object({
      count: integerField(rules.generateCount),
      phonePrefix: textField(rules.phonePrefix).default(''),
      app: appCode.default('tailor'),
      channel: channelCode.default('other'),
    }),
    output: z.object({ accounts: z.array(z.object({ id, phone: z.string(), password: z.string() })) }),
    example: { count: 1 },
    audit: { action: 'users.generate', label: '批量生成账号', target },
  }),
};

const allUserEndpoints = { ...userEndpoints, ...accountEndpoints, ...userAdminEndpoints };
export default allUserEndpoints;
type UserEndpoints = typeof allUserEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends UserEndpoints {}
}

/**
 * What an operator may do in the console: permissions grouped by the console page they belong to
 * (the page's folder under packages/web/src/pages/admin), each with its Chinese label. Every admin
 * endpoint names the one it needs (`permission` in its contract entry); the server checks it on
 * every call and the console shows only the menu entries, tabs and buttons it allows.
 *
 * A permission is `<page>.<action>`. Every page has `read` (its menu entry and its lists); an
 * operator holding any other action of a page holds its `read` too (rolesPermissions adds it).
 * `sensitive` actions are the ones a team hands out one by one: revealing a phone, exports,
 * refunds, granting or taking coins and VIP, managing operators and roles, the site's and the
 * apps' settings.
 */
export interface PermissionAction {
  label: string;
  sensitive?: true;
}

interface PermissionPage {
  label: string;
  actions: Readonly<Record<string, PermissionAction>>;
}

const read = { label: '查看' };
const exportAll = { label: '导出', sensitive: true } as const;

export const permissionPages = {
  dashboard: { label: '数据统计', actions: { read } },
  users: {
    label: '用户管理',
    actions: {
      read,
      revealPhone: { label: '查看完整手机号', sensitive: true },
      export: exportAll,
      block: { label: '封禁与解封' },
      logout: { label: '强制下线' },
      message: { label: '给所选用户发消息' },
      coins: { label: '调整金币', sensitive: true },
      vip: { label: '调整会员时长', sensitive: true },
      resetPassword: { label: '重置密码', sensitive: true },
      generate: { label: '生成账号', sensitive: true },
    },
  },
  online: { label: '在线用户', actions: { read, export: exportAll, revoke: { label: '强制下线' } } },
  message: {
    label: '站内消息',
    actions: { read, send: { label: '发送与修改' }, block: { label: '屏蔽与取消屏蔽' }, export: exportAll },
  },
  feedback: { label: '意见反馈', actions: { read, reply: { label: '回复与处理' }, export: exportAll } },
  feedbackv2: {
    label: '反馈工单',
    actions: {
      read,
      reply: { label: '回复、分配与关闭' },
      canned: { label: '管理快捷回复' },
      export: exportAll,
    },
  },
  version: {
    label: '版本管理',
    actions: {
      read,
      edit: { label: '新建、修改与删除草稿' },
      publish: { label: '发布、暂停与回滚' },
      export: exportAll,
    },
  },
  a11t: { label: '键值配置', actions: { read, edit: { label: '新建、修改、回滚与删除' }, export: exportAll } },
  apps: {
    label: '应用管理',
    actions: {
      read,
      edit: { label: '登记、修改、启用与停用', sensitive: true },
      secrets: { label: '设置商店与支付密钥', sensitive: true },
      export: exportAll,
    },
  },
  plan: { label: '会员套餐', actions: { read, edit: { label: '新建、修改与上下架' }, export: exportAll } },
  order: {
    label: '订单管理',
    actions: {
      read,
      pay: { label: '人工确认收款（发放会员与金币）', sensitive: true },
      cancel: { label: '取消订单' },
      refund: { label: '退款', sensitive: true },
      export: exportAll,
    },
  },
  iap: { label: '内购商品', actions: { read, edit: { label: '新建、修改与启停' }, export: exportAll } },
  iaprecord: { label: '内购记录', actions: { read, export: exportAll } },
  coin: { label: '金币流水', actions: { read, export: exportAll } },
  exchange: {
    label: '兑换商品',
    actions: { read, edit: { label: '新建、修改、复制、上下架与导入兑换码' }, export: exportAll },
  },
  exchangerecord: {
    label: '兑换记录',
    actions: {
      read,
      ship: { label: '发货' },
      cancel: { label: '取消并退还金币', sensitive: true },
      grant: { label: '补发商品', sensitive: true },
      revealPhone: { label: '查看完整收货手机号', sensitive: true },
      export: { label: '导出（含完整收货手机号）', sensitive: true },
    },
  },
  reviewreward: {
    label: '好评奖励',
    actions: {
      read,
      review: { label: '通过与驳回（发放金币）', sensitive: true },
      settings: { label: '设置奖励金币', sensitive: true },
      export: exportAll,
    },
  },
  selfapp: { label: '自家应用', actions: { read, edit: { label: '新建、修改、删除与启停' }, export: exportAll } },
  selfapprecord: { label: '推广记录', actions: { read, export: exportAll } },
  help: {
    label: '帮助文档',
    actions: { read, edit: { label: '新建、修改与删除' }, publish: { label: '发布与下线' }, export: exportAll },
  },
  soundeffect: { label: '音效管理', actions: { read, edit: { label: '上传、修改与删除' }, export: exportAll } },
  unsplash: {
    label: '图片管理',
    actions: { read, edit: { label: '上传、修改、启停、移动与删除' }, export: exportAll },
  },
  upload: {
    label: '文件管理',
    actions: { read, upload: { label: '上传文件' }, remove: { label: '删除文件' }, export: exportAll },
  },
  clienterror: { label: '前端错误', actions: { read, resolve: { label: '标记为已处理' }, export: exportAll } },
  allocation: { label: '站点配置', actions: { read, update: { label: '修改站点配置', sensitive: true } } },
  loginlog: { label: '登录日志', actions: { read, export: exportAll } },
  audit: { label: '操作日志', actions: { read, export: exportAll } },
  roles: {
    label: '角色管理',
    actions: { read, manage: { label: '新建、修改与删除角色', sensitive: true }, export: exportAll },
  },
  operators: {
    label: '操作员管理',
    actions: {
      read,
      manage: { label: '新建操作员、分配角色与应用、停用、重置密码与二次验证', sensitive: true },
      export: exportAll,
    },
  },
} as const satisfies Record<string, PermissionPage>;

export type PermissionPageKey = keyof typeof permissionPages;
type ActionsOf<K extends PermissionPageKey> = keyof (typeof permissionPages)[K]['actions'] & string;
/** One permission: `<page>.<action>`, e.g. `order.refund`. */
export type Permission = { [K in PermissionPageKey]: `${K}.${ActionsOf<K>}` }[PermissionPageKey];

/**
 * The declaration of an admin endpoint every operator may call whatever their roles: the console's
 * own plumbing (its to-do notices, the apps' names for the switcher), scoped by apps where it
 * touches app data.
 */
export const ANY_OPERATOR = 'any-operator' as const;
export type EndpointPermission = Permission | typeof ANY_OPERATOR;

/** Every permission with its page and labels, in the catalog's order (the roles page's tree). */
export const permissionList: readonly {
  key: Permission;
  page: PermissionPageKey;
  pageLabel: string;
  label: string;
  sensitive: boolean;
}[] = Object.entries(permissionPages).flatMap(([page, { label: pageLabel, actions }]) =>
  Object.entries(actions as Record<string, PermissionAction>).map(([action, def]) => ({
    key: `${page}.${action}` as Permission,
    page: page as PermissionPageKey,
    pageLabel,
    label: def.label,
    sensitive: def.sensitive === true,
  })),
);

const known = new Set<string>(permissionList.map((p) => p.key));
export const isPermission = (value: string): value is Permission => known.has(value);

/** 「订单管理 · 退款」: a permission as the console and the operation log name it. */
export function permissionLabel(key: string): string {
  const found = permissionList.find((p) => p.key === key);
  return found ? `${found.pageLabel} · ${found.label}` : key;
}

/** The page a permission belongs to (`order.refund` → `order`). */
export const pageOfPermission = (key: Permission): PermissionPageKey => key.split('.')[0] as PermissionPageKey;

/**
 * A role's stored permissions as the server grants them: only known ones, and each page's `read`
 * wherever another action of that page is held.
 */
export function withPageReads(keys: readonly string[]): Permission[] {
  const held = new Set(keys.filter(isPermission));
  for (const key of [...held]) held.add(`${pageOfPermission(key)}.read` as Permission);
  return permissionList.map((p) => p.key).filter((key) => held.has(key));
}

const all = permissionList.map((p) => p.key);
const reads = all.filter((key) => key.endsWith('.read'));
const pick = (...keys: Permission[]) => keys;

/**
 * The roles every site starts with. 超级管理员 holds every permission now and later, in every app,
 * and cannot be edited; the others are starting points an operator may change.
 */
export const builtinRoles = {
  super: { name: '超级管理员', description: '全部权限、全部应用；不可修改，至少保留一位', permissions: all },
  ops: {
    name: '运营',
    description: '消息、帮助、远程配置、推广、兑换商品、素材与反馈；不含导出、退款和敏感操作',
    permissions: pick(
      'dashboard.read',
      'users.read',
      'users.message',
      'message.read',
      'message.send',
      'message.block',
      'feedback.read',
      'feedback.reply',
      'feedbackv2.read',
      'feedbackv2.reply',
      'feedbackv2.canned',
      'help.read',
      'help.edit',
      'help.publish',
      'a11t.read',
      'a11t.edit',
      'selfapp.read',
      'selfapp.edit',
      'selfapprecord.read',
      'exchange.read',
      'exchange.edit',
      'exchangerecord.read',
      'exchangerecord.ship',
      'reviewreward.read',
      'soundeffect.read',
      'soundeffect.edit',
      'unsplash.read',
      'unsplash.edit',
      'upload.read',
      'upload.upload',
      'plan.read',
      'iap.read',
      'version.read',
      'clienterror.read',
      'clienterror.resolve',
    ),
  },
  support: {
    name: '客服',
    description: '处理反馈与站内消息，查看用户（手机号脱敏）与订单；不能退款、导出或查看完整手机号',
    permissions: pick(
      'dashboard.read',
      'users.read',
      'users.message',
      'message.read',
      'message.send',
      'feedback.read',
      'feedback.reply',
      'feedbackv2.read',
      'feedbackv2.reply',
      'feedbackv2.canned',
      'order.read',
      'exchangerecord.read',
      'reviewreward.read',
      'help.read',
      'upload.upload',
    ),
  },
  finance: {
    name: '财务',
    description: '订单收款、退款与导出，内购记录与金币流水；不能发布版本',
    permissions: pick(
      'dashboard.read',
      'users.read',
      'order.read',
      'order.pay',
      'order.cancel',
      'order.refund',
      'order.export',
      'iaprecord.read',
      'iaprecord.export',
      'coin.read',
      'coin.export',
      'plan.read',
      'iap.read',
    ),
  },
  release: {
    name: '版本发布',
    description: '版本的新建、发布、暂停与回滚，远程配置与安装包上传',
    permissions: pick(
      'dashboard.read',
      'version.read',
      'version.edit',
      'version.publish',
      'a11t.read',
      'a11t.edit',
      'apps.read',
      'upload.read',
      'upload.upload',
      'clienterror.read',
    ),
  },
  auditor: {
    name: '只读审计',
    description: '查看全部页面与操作日志；不能修改、导出或查看完整手机号',
    permissions: reads,
  },
} as const satisfies Record<string, { name: string; description: string; permissions: readonly Permission[] }>;

export type BuiltinRole = keyof typeof builtinRoles;
export const SUPER_ROLE: BuiltinRole = 'super';

import { channels, iapEnvironments } from '@appdesk/contract/constants';
import { appSecretKindValues } from '@appdesk/contract/endpoints/apps';
import { type AppRecord, readApps, secretContext } from '../../core/apps';
import { sealSecret } from '../../core/secret-box';
import { pageAnswer, shanghaiTime } from '../../db/paging';
import { mustReach, mustSee, reaches } from '../../http/app-scope';
import { fail } from '../../http/errors';
import { listExport, pagedHandler, wordsOf, yesNo } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { loadApp, presentApp } from './queries';

const channelWord = wordsOf(channels);
const environmentWord = wordsOf(iapEnvironments);

/** Input fields and their columns (the code is set once, at registration). */
const columnOf = {
  name: 'name',
  icon: 'icon',
  description: 'description',
  androidPackage: 'android_package',
  iosBundleId: 'ios_bundle_id',
  appleAppId: 'apple_app_id',
  icpFiling: 'icp_filing',
  alipayAppId: 'alipay_app_id',
  alipayPublicKey: 'alipay_public_key',
  wechatMchId: 'wechat_mch_id',
  wechatAppId: 'wechat_app_id',
  wechatPlatformPublicKey: 'wechat_platform_public_key',
  wechatPlatformSerial: 'wechat_platform_serial',
} as const;

type Settings = Partial<Record<keyof typeof columnOf, string>> & {
  enabled?: boolean;
  channels?: { channel: string; storeLink: string }[];
  appleEnvironments?: string[];
};

/** The stored columns of the settings given (those left out are not touched). */
function columns(input: Settings): Record<string, string | number> {
  const set: Record<string, string | number> = {};
  for (const [key, column] of Object.entries(columnOf)) {
    const value = input[key as keyof typeof columnOf];
    if (value !== undefined) set[column] = value;
  }
  if (input.enabled !== undefined) set.enabled = input.enabled ? 1 : 0;
  if (input.channels !== undefined) set.channels = JSON.stringify(input.channels);
  if (input.appleEnvironments !== undefined) set.apple_environments = input.appleEnvironments.join(',');
  return set;
}

/** The same bundle id, package, Alipay app or WeChat merchant in two apps would let one app's purchases pay the other's. */
function refuseSharedIdentity(apps: AppRecord[], id: number | null, next: Settings, seen: (app: AppRecord) => boolean) {
  const others = apps.filter((a) => a.id !== id);
  const unique = [
    ['iosBundleId', 'iOS Bundle ID'],
    ['androidPackage', '安卓包名'],
    ['alipayAppId', '支付宝 AppID'],
    ['wechatAppId', '微信 AppID'],
  ] as const;
  for (const [field, label] of unique) {
    const value = next[field];
    const owner = value ? others.find((a) => a[field] === value) : undefined;
    // An app outside the operator's scope is not named to them.
    if (owner) throw fail.conflict(`${label} ${value} 已属于${seen(owner) ? `应用「${owner.name}」` : '另一个应用'}`);
  }
}

/** 应用管理's list: the apps are few, so the page is cut from all of them, read fresh. */
const appsList = pagedHandler('/api/apps/fetch/page', {
  handler: async (input, ctx) => {
    const search = input.search.toLowerCase();
    const matching = (await readApps(ctx.db)).filter(
      (a) =>
        reaches(ctx, a.code) &&
        (input.enabled === undefined || a.enabled === input.enabled) &&
        (!search || a.code.includes(search) || a.name.toLowerCase().includes(search)),
    );
    const key =
      input.sort === 'code' ? (a: (typeof matching)[number]) => a.code : (a: (typeof matching)[number]) => a.id;
    const sign = input.order === 'ascend' ? 1 : -1;
    matching.sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
    const start = input.page * input.size;
    const list = matching.slice(start, start + input.size).map((a) => presentApp(a, ctx.apps));
    return pageAnswer(list, { total: matching.length, totalExact: true }, input.page, input.size);
  },
});

export default defineRoutes({
  '/api/apps/fetch/page': appsList,
  '/api/apps/export': listExport(appsList, {
    filename: '应用',
    columns: [
      { header: 'ID', width: 8, cell: (a) => a.id },
      { header: '应用代码', width: 14, cell: (a) => a.code },
      { header: '应用名称', width: 16, cell: (a) => a.name },
      { header: '启用', width: 8, cell: (a) => yesNo(a.enabled) },
      { header: '安卓包名', width: 26, cell: (a) => a.androidPackage },
      { header: 'iOS Bundle ID', width: 26, cell: (a) => a.iosBundleId },
      { header: 'Apple ID', width: 14, cell: (a) => a.appleAppId },
      { header: '上架渠道', width: 30, cell: (a) => a.channels.map((c) => channelWord(c.channel)).join('、') },
      { header: 'APP 备案号', width: 22, cell: (a) => a.icpFiling },
      { header: 'App Store 环境', width: 16, cell: (a) => a.appleEnvironments.map(environmentWord).join('、') },
      { header: '支付宝 AppID', width: 18, cell: (a) => a.alipayAppId },
      { header: '微信支付商户号', width: 16, cell: (a) => a.wechatMchId },
      { header: '创建时间', width: 18, cell: (a) => shanghaiTime(a.createdAt) },
    ],
  }),

  '/api/apps/fetch/options': {
    handler: async (_input, ctx) => ({
      // The apps this operator reaches: every app picker of the console offers these.
      list: (await readApps(ctx.db))
        .filter((a) => reaches(ctx, a.code))
        .map((a) => ({ code: a.code, name: a.name, icon: a.icon, enabled: a.enabled })),
      secretsWritable: ctx.apps.secretsWritable,
    }),
  },

  '/api/apps/fetch/detail': {
    handler: async (input, ctx) => {
      const app = await loadApp(ctx.db, input.id);
      mustSee(ctx, app.code, '应用不存在');
      return { app: presentApp(app, ctx.apps) };
    },
  },

  '/api/apps/make': {
    transaction: true,
    message: '应用已登记',
    handler: async (input, ctx) => {
      const { code, ...settings } = input;
      // An operator limited to some apps would not reach the app they register.
      if (ctx.grants?.apps) throw fail.forbidden('只有可管理全部应用的操作员才能登记新应用');
      const taken = await ctx.db.selectFrom('apps').select('name').where('code', '=', code).executeTakeFirst();
      if (taken) throw fail.conflict(`应用代码 ${code} 已被应用「${taken.name}」使用`);
      refuseSharedIdentity(await readApps(ctx.db), null, settings, (a) => reaches(ctx, a.code));
      const now = Date.now();
      const { id } = await ctx.db
        .insertInto('apps')
        .values({ code, ...columns(settings), created_at: now, updated_at: now } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
      const app = presentApp(await loadApp(ctx.db, id), ctx.apps);
      // The settings an operator gave; what the server derives (secrets' state, the environment) is not a change.
      const { secrets, fromEnvironment, isDefault, createdAt, updatedAt, ...given } = app;
      await ctx.audit({ targetId: id, after: given });
      ctx.afterCommit(() => ctx.apps.changed());
      return { app };
    },
  },

  '/api/apps/update': {
    transaction: true,
    message: '应用已保存',
    handler: async (input, ctx) => {
      const { id, ...changes } = input;
      const set = columns(changes);
      if (Object.keys(set).length === 0) throw fail.badInput('请至少修改一项');
      const apps = await readApps(ctx.db);
      const current = apps.find((a) => a.id === id);
      if (!current) throw fail.notFound('应用不存在');
      await mustReach(ctx, current.code);
      refuseSharedIdentity(apps, id, { ...current, ...changes }, (a) => reaches(ctx, a.code));
      await ctx.db
        .updateTable('apps')
        .set({ ...set, updated_at: Date.now() })
        .where('id', '=', id)
        .execute();
      if (changes.icon !== undefined && changes.icon !== current.icon) ctx.releaseFile(current.icon);
      const before = presentApp(current, ctx.apps);
      const after = presentApp(await loadApp(ctx.db, id), ctx.apps);
      const fields = Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined);
      const pick = (v: typeof after) => Object.fromEntries(fields.map((f) => [f, v[f as keyof typeof v]]));
      await ctx.audit({ targetId: id, before: pick(before), after: pick(after) });
      ctx.afterCommit(() => ctx.apps.changed());
      return { app: after };
    },
  },

  '/api/apps/secret/set': {
    transaction: true,
    message: '密钥已保存',
    handler: async (input, ctx) => {
      const keys = ctx.config.secretKeys;
      if (!keys) {
        throw fail.badInput('服务器未配置密钥加密的主密钥，密钥不能在控制台保存：请由服务器的环境变量或文件提供');
      }
      const app = await loadApp(ctx.db, input.id);
      await mustReach(ctx, app.code);
      const kind = input.kind;
      if (!appSecretKindValues.includes(kind)) throw fail.badInput('未知的密钥');
      if (input.value !== null) checkSecret(kind, input.value);
      const had = Boolean(app.secrets[kind]);
      await ctx.db.deleteFrom('app_secrets').where('app_id', '=', app.id).where('kind', '=', kind).execute();
      if (input.value !== null) {
        await ctx.db
          .insertInto('app_secrets')
          .values({
            app_id: app.id,
            kind,
            sealed: sealSecret(keys, input.value, secretContext(app.id, kind)),
            set_at: Date.now(),
            set_by: ctx.user.id,
          })
          .execute();
      }
      // The log says which secret changed, never its value.
      await ctx.audit({ targetId: app.id, before: { kind, set: had }, after: { kind, set: input.value !== null } });
      ctx.afterCommit(() => ctx.apps.changed());
      return { app: presentApp(await loadApp(ctx.db, app.id), ctx.apps) };
    },
  },
});

/** A secret's own shape, checked before it is sealed (a wrong one would only fail at the first purchase). */
function checkSecret(kind: string, value: string) {
  if (kind === 'wechatApiV3Key' && Buffer.byteLength(value) !== 32) {
    throw fail.badInput('微信支付 APIv3 密钥必须是 32 个字符');
  }
  if (kind === 'googleServiceAccount') {
    let key: { client_email?: unknown; private_key?: unknown } = {};
    try {
      key = JSON.parse(value);
    } catch {
      throw fail.badInput('Google Play 服务账号密钥应为下载的 JSON 文件内容');
    }
    if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
      throw fail.badInput('Google Play 服务账号密钥缺少 client_email 或 private_key');
    }
  }
}

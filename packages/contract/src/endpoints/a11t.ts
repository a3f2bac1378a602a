import { z } from 'zod';
import { channels, configTypes, platforms } from '../constants';
import { auditTarget, endpoint } from '../endpoint';
import {
  appCode,
  choice,
  exactTotal,
  id,
  integerField,
  isoTime,
  listExport,
  order,
  page,
  paged,
  search,
  size,
  sortBy,
  textField,
  worded,
} from '../fields';
import { parseConfigValue, rules, valuesOf } from '../rules';

/**
 * Remote config (键值配置, the product's key-values): typed values per app with conditional
 * overrides, every change kept as a revision, and the apps' one call that resolves them all.
 */
const target = auditTarget('a11t', '键值配置', 'a11t', {
  revision: '修订号',
  overrides: '条件值',
  description: '说明',
});
const keyId = z.object({ id: id.meta({ title: '键值 ID' }) });
const configType = choice('类型', configTypes);
const versionBound = integerField(rules.currentVersionCode).nullable();
const revision = (title: string) => integerField({ kind: 'integer', title, min: 1, max: 1_000_000_000 });

/**
 * One conditional value, evaluated top-down (the first that matches a device wins): by channel,
 * platform, app version range and a stable share of devices (hash of device id and key).
 */
export const configOverride = z
  .object({
    channels: z
      .array(worded(z.enum(valuesOf(channels), { error: '未知的渠道' }), channels), { error: '渠道必须是数组' })
      .max(channels.length)
      .default([])
      .meta({ title: '渠道', description: '为空表示所有渠道' }),
    platforms: z
      .array(worded(z.enum(valuesOf(platforms), { error: '平台只能是 android 或 ios' }), platforms), {
        error: '平台必须是数组',
      })
      .max(2)
      .default([])
      .meta({ title: '平台', description: '为空表示所有平台' }),
    minVersionCode: versionBound.default(null).meta({ title: '最低版本号（含）' }),
    maxVersionCode: versionBound.default(null).meta({ title: '最高版本号（含）' }),
    percent: integerField(rules.percent).default(100),
    value: textField(rules.configValue),
  })
  .meta({ title: '条件值' });
export type ConfigOverride = z.infer<typeof configOverride>;

const overrides = z
  .array(configOverride, { error: '条件值必须是数组' })
  .max(20, { error: '条件值最多 20 条' })
  .meta({ title: '条件值' });

/** Every value (the default and each override's) must be a value of the type. */
function typedValues(input: { type?: string; value?: string; overrides?: ConfigOverride[] }, ctx: z.RefinementCtx) {
  if (!input.type) return;
  const type = input.type as 'string' | 'number' | 'boolean' | 'json';
  const check = (raw: string | undefined, path: (string | number)[]) => {
    if (raw === undefined) return;
    const parsed = parseConfigValue(type, raw);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `值${parsed.problem}`, path });
  };
  check(input.value, ['value']);
  input.overrides?.forEach((o, i) => {
    check(o.value, ['overrides', i, 'value']);
    if (o.minVersionCode !== null && o.maxVersionCode !== null && o.minVersionCode > o.maxVersionCode) {
      ctx.addIssue({ code: 'custom', message: '条件值的最低版本号不能大于最高版本号', path: ['overrides', i] });
    }
  });
}

export const configEntry = z.object({
  id,
  app: z.string(),
  key: z.string(),
  type: z.string(),
  value: z.string(),
  description: z.string(),
  overrides: z.array(configOverride),
  revision: z.number().int().meta({ description: '这个键的修订号，每次修改加一' }),
  updatedBy: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
});

export const configRevision = z.object({
  id,
  revision: z.number().int(),
  action: z.string().meta({ description: 'make 新建、update 修改、rollback 回滚、remove 删除' }),
  rolledBackTo: z.number().int().nullable(),
  type: z.string(),
  value: z.string(),
  overrides: z.array(configOverride),
  description: z.string(),
  /** The revision before this one, for the diff (null for the first). */
  previous: z
    .object({ type: z.string(), value: z.string(), overrides: z.array(configOverride), description: z.string() })
    .nullable(),
  actor: z.string(),
  createdAt: isoTime,
});

const a11tPage = endpoint({
  access: 'admin',
  permission: 'a11t.read',
  summary: '分页查询键值（应用、类型、键名或说明搜索）',
  input: z.object({
    page,
    size,
    exactTotal,
    app: appCode.optional(),
    type: configType.optional(),
    search,
    sort: sortBy(['key', 'updatedAt']),
    order: order.default('ascend'),
  }),
  output: paged(configEntry),
});

export const a11tEndpoints = {
  '/api/a11t/make': endpoint({
    access: 'admin',
    permission: 'a11t.edit',
    summary: '新建键值（键名在应用内唯一；值按类型校验）',
    input: z
      .object({
        app: appCode.default('tailor'),
        key: textField(rules.configKey),
        type: configType.default('string'),
        value: textField(rules.configValue),
        description: textField(rules.description).default(''),
        overrides: overrides.default([]),
      })
      .superRefine(typedValues),
    output: z.object({ entry: configEntry }),
    example: { key: 'feature.long_shot', type: 'boolean', value: 'false', description: '长截图新算法' },
    audit: { action: 'a11t.make', label: '新建键值', target },
  }),
  '/api/a11t/update': endpoint({
    access: 'admin',
    permission: 'a11t.edit',
    summary:
      '修改键值（只改传入的字段；每次修改都保存为新的修订）。传入 baseRevision（编辑所基于的修订号）时，若他人已先保存，答 409 已被他人修改，请刷新后重试',
    input: keyId
      .extend({
        baseRevision: revision('编辑所基于的修订号').optional(),
        type: configType.optional(),
        value: textField(rules.configValue).optional(),
        description: textField(rules.description).optional(),
        overrides: overrides.optional(),
      })
      .superRefine(typedValues),
    output: z.object({ entry: configEntry }),
    example: { id: 1, baseRevision: 1, value: 'true' },
    audit: { action: 'a11t.update', label: '修改键值', target },
  }),
  '/api/a11t/rollback': endpoint({
    access: 'admin',
    permission: 'a11t.edit',
    summary: '把键值回滚到某个修订（回滚本身也是一个新修订）',
    input: keyId.extend({ revision: revision('修订号') }),
    output: z.object({ entry: configEntry }),
    example: { id: 1, revision: 1 },
    audit: { action: 'a11t.rollback', label: '回滚键值', target },
  }),
  '/api/a11t/remove': endpoint({
    access: 'admin',
    permission: 'a11t.edit',
    summary: '删除键值（修订历史保留）',
    input: keyId,
    output: z.null(),
    example: { id: 1 },
    audit: { action: 'a11t.remove', label: '删除键值', target },
  }),
  '/api/a11t/fetch/page': a11tPage,
  '/api/a11t/export': listExport(a11tPage, '键值配置'),
  '/api/a11t/fetch/revisions': endpoint({
    access: 'admin',
    permission: 'a11t.read',
    summary: '一个键值的全部修订（谁、何时、修改前后）',
    input: keyId,
    output: z.object({ list: z.array(configRevision) }),
    example: { id: 1 },
  }),
  '/api/a11t/fetch': endpoint({
    access: 'public',
    summary: 'App：一次取回应用的全部键值（按设备解析条件值）；带上已有的 tag 且未变化时只答 unchanged',
    input: z.object({
      app: appCode,
      platform: choice('平台', platforms),
      channel: textField(rules.channelName),
      versionCode: integerField(rules.currentVersionCode),
      deviceId: textField(rules.deviceId),
      tag: textField(rules.configTag).optional(),
    }),
    output: z.object({
      tag: z.string().meta({ description: '这组值的版本标记，下次请求时带上' }),
      unchanged: z.literal(true).optional(),
      values: z.record(z.string(), z.unknown()).optional().meta({ description: '键 → 按类型解析后的值' }),
    }),
    example: { app: 'tailor', platform: 'android', channel: 'huawei', versionCode: 200, deviceId: 'a1b2c3d4-device' },
  }),
};

export default a11tEndpoints;
type A11tEndpoints = typeof a11tEndpoints;
declare module '../endpoint' {
  interface EndpointRegistry extends A11tEndpoints {}
}

import { z } from 'zod';
import { APP_CODE_PATTERN, channels } from './constants';
import { endpoint } from './endpoint';
import { type EndpointPermission, isPermission, type Permission, pageOfPermission } from './permissions';
import {
  type IntegerRule,
  integerMessages,
  MAX_ID,
  phonePattern,
  rules,
  type TextRule,
  textMessages,
  valuesOf,
} from './rules';

/**
 * Field schemas reused across endpoints. Each carries a Chinese title (`meta`) so the
 * server can name the field in a 400 message, and a Chinese message for its own rule.
 */
export const phone = z
  .string({ error: textMessages(rules.phone).type })
  .regex(phonePattern, { error: textMessages(rules.phone).pattern })
  .meta({ title: rules.phone.title });

/** What the client sends for a password: lower-case hex SHA-256 of the UTF-8 password. */
export const passwordDigest = z
  .string({ error: '密码必须是字符串' })
  .regex(/^[0-9a-f]{64}$/, { error: '密码格式不正确（应为 SHA-256 摘要）' })
  .meta({ title: '密码' });

/**
 * An operator's new password as typed, sent beside its digest over the same HTTPS request so the
 * server can check the operator rule (rules/users.ts), which a digest cannot show. Checked
 * against the digest, then dropped: never stored, logged or written to the operation log.
 */
export const plainPassword = z
  .string({ error: '密码原文必须是字符串' })
  .min(1, { error: '密码原文不能为空' })
  .max(200, { error: '密码原文过长' })
  .meta({
    title: '新密码原文',
    description: '操作员设置密码时必填，仅用于在服务器上检查密码规则，不保存、不记录；App 用户不填',
  });

export const id = z
  .number({ error: 'ID 必须是数字' })
  .int({ error: 'ID 必须是整数' })
  .positive({ error: 'ID 必须大于 0' })
  .max(MAX_ID, { error: 'ID 超出范围' })
  .meta({ title: 'ID' });

/** Page numbers count from 0, as the unread-messages call does (docs/spec-notes.md#7-requests). */
export const page = z
  .number({ error: '页码必须是数字' })
  .int({ error: '页码必须是整数' })
  .min(0, { error: '页码不能小于 0' })
  .max(10_000_000, { error: '页码过大' })
  .default(0)
  .meta({ title: '页码' });

export const size = z
  .number({ error: '每页条数必须是数字' })
  .int({ error: '每页条数必须是整数' })
  .min(1, { error: '每页条数至少为 1' })
  .max(1024, { error: '每页条数最多 1024' })
  .default(20)
  .meta({ title: '每页条数' });

export const isoTime = z.string().meta({ title: '时间', description: 'ISO 8601, UTC' });

/** C0 control characters other than tab and line breaks: never meaningful in our text, and NUL breaks PostgreSQL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Text with trimmed length bounds, titled for error messages; control characters are refused. */
export function text(title: string, min: number, max: number) {
  return textField({ kind: 'text', title, min, max });
}

/** The zod schema of a text rule (rules.ts): trimmed, bounded, its pattern, no control characters. */
export function textField(rule: TextRule) {
  const messages = textMessages(rule);
  const base = z
    .string({ error: messages.type })
    .trim()
    .min(rule.min, { error: messages.min })
    .max(rule.max, { error: messages.max });
  return (rule.pattern ? base.regex(rule.pattern, { error: messages.pattern }) : base)
    .refine((value) => !controlChars.test(value), { error: `${rule.title}不能包含控制字符` })
    .meta({ title: rule.title });
}

/** The zod schema of an integer rule (rules.ts). */
export function integerField(rule: IntegerRule) {
  const messages = integerMessages(rule);
  const base = z
    .number({ error: messages.type })
    .int({ error: messages.integer })
    .min(rule.min, { error: messages.min })
    .max(rule.max, { error: messages.max });
  return (rule.nonZero ? base.refine((v) => v !== 0, { error: messages.nonZero }) : base).meta({
    title: rule.title,
  });
}

/** A value of a value/label list (rules.ts `valuesOf`), refused with a Chinese message naming the field. */
export function oneOf<const V extends readonly [string, ...string[]]>(title: string, values: V) {
  return z.enum(values, { error: `${title}只能是 ${values.join('、')}` }).meta({ title });
}

/**
 * The Chinese words of an enum's codes, kept beside its schema (and inherited by its `.meta()`
 * copies) for whatever shows a stored code to a person: the operation log reads them here. Not
 * part of the OpenAPI document. `fieldNames`: the codes are field names (a list's sort column).
 */
export interface ValueWords {
  labels?: readonly { value: string; label: string }[];
  fieldNames?: true;
  /** The codes are apps' codes: their words are the apps' names, which are data (应用管理). */
  apps?: true;
}
export const valueWords = z.registry<ValueWords>();

/** Gives an enum schema the Chinese words of its codes (`valueWords`). */
export function worded<S extends z.ZodType>(schema: S, labels: readonly { value: string; label: string }[]): S {
  valueWords.add(schema, { labels });
  return schema;
}

/** One of a value/label list's codes, titled, with the list's labels as its words. */
export function choice<const V extends string>(title: string, options: readonly { value: V; label: string }[]) {
  return worded(oneOf(title, valuesOf(options)), options);
}

export const empty = z.object({}).meta({ title: '空' });

/**
 * A server-paged list (docs/architecture.md#lists): data: { list, total, page, size }. `totalExact` is false when a
 * filtered total was only counted up to a limit (`total` is then a lower bound: "10,000+").
 */
export function paged<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int(),
    totalExact: z.boolean(),
    page: z.number().int(),
    size: z.number().int(),
  });
}

/**
 * The export of a paged admin list: the list's own filter and sort without its paging, answered as
 * the whole result in an .xlsx in the list's order (server: http/paged.ts). `what` names the rows
 * (「意见反馈」), which the summary and the operation log's label (exportAudit) read.
 */
export function listExport<S extends z.core.$ZodLooseShape>(
  list: { input: z.ZodObject<S>; permission?: EndpointPermission },
  what: string,
) {
  const paging = ['page', 'size', 'exactTotal'].filter((key) => key in list.input.shape);
  const mask = Object.fromEntries(paging.map((key) => [key, true])) as Record<'page' | 'size' | 'exactTotal', true>;
  if (!list.permission || !isPermission(list.permission))
    throw new Error(`the list of ${what} names no page permission`);
  return endpoint({
    access: 'admin',
    // The list's page's export (`order.read` → `order.export`): exports are handed out apart.
    permission: `${pageOfPermission(list.permission)}.export` as Permission,
    summary: `导出筛选后的全部${what}为 Excel`,
    input: list.input.omit(mask as never) as z.ZodObject<Omit<S, 'page' | 'size' | 'exactTotal'>>,
    output: z.unknown(),
    download: 'xlsx',
  });
}

/** Asks a list for its exact total even where counting it is expensive. */
export const exactTotal = z
  .boolean({ error: '精确总数必须是布尔值' })
  .optional()
  .meta({ title: '精确总数', description: '为 true 时总数精确计算（可能较慢）' });

/** Sort direction, named as antd's Table names it. */
export const order = worded(z.enum(['ascend', 'descend'], { error: '排序方向只能是 ascend 或 descend' }), [
  { value: 'ascend', label: '升序' },
  { value: 'descend', label: '降序' },
])
  .default('descend')
  .meta({ title: '排序方向' });

/** Which column a list sorts by: one of `keys`, the first by default. */
export function sortBy<const K extends readonly [string, ...string[]]>(keys: K) {
  const schema = z.enum(keys, { error: `排序字段只能是 ${keys.join('、')}` });
  valueWords.add(schema, { fieldNames: true });
  return schema.default(keys[0] as K[number] as never).meta({ title: '排序字段' });
}

/** An ISO 8601 time with its offset, named `title` in its error and its meta. */
export const dateTimeField = (title: string) =>
  z.iso.datetime({ offset: true, error: `${title}格式不正确` }).meta({ title });

/** An inclusive time range as ISO 8601 strings (the web's date presets produce them). */
export const timeRange = z
  .object({ from: dateTimeField('开始时间').optional(), to: dateTimeField('结束时间').optional() })
  .meta({ title: '时间范围' });

/** A short search string; empty means no search. */
export const search = textField(rules.search).default('');

/** The user an operator acts on. */
export const userId = id.meta({ title: '用户 ID' });

export const reasonNote = textField(rules.reason);

/**
 * One of the company's apps, by its code. Apps are data (应用管理): the schema checks the code's
 * shape; the server refuses a code no app has, and an app call naming a disabled app. Its words
 * are the apps' names (`valueWords` kind `apps`), looked up where a code is shown.
 */
export const appCode = z
  .string({ error: '应用必须是字符串' })
  .regex(APP_CODE_PATTERN, { error: '未知的应用' })
  .meta({ title: '应用' });
valueWords.add(appCode, { apps: true });
/** One of the store channels (constants `channels`). */
export const channelCode = worded(z.enum(valuesOf(channels), { error: '未知的渠道' }), channels).meta({
  title: '渠道',
});

import type { AuditDecl, AuditField } from '@appdesk/contract';
import { endpointEntries, fields } from '@appdesk/contract';
import { type auditChange, auditSharedFields, exportAudit, signInAudit } from '@appdesk/contract/endpoints/audit';
import {
  durationInWords,
  fenToYuan,
  fileUrlWords,
  formatExactTime,
  formatSize,
  maskPhone,
  mimeWords,
} from '@appdesk/contract/format';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { describeDevice } from '../../core/device';
import { iso } from '../../db/paging';
import type { AuditLogTable } from '../../db/schema';

type Change = z.output<typeof auditChange>;

/** A zod schema's internals, as far as walking titles needs them. */
interface SchemaDef {
  type: string;
  shape?: Record<string, ZodLike>;
  innerType?: ZodLike;
  in?: ZodLike;
  element?: ZodLike;
  options?: ZodLike[];
}
interface ZodLike {
  _zod: { def: SchemaDef };
  meta(): { title?: string } | undefined;
}

/** How the log names and reads one field: its label, the words of its codes, a format. */
interface FieldWords extends Partial<AuditField>, fields.ValueWords {}

const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/**
 * The schema under optional/default/pipe wrappers, with the first title and the first code words
 * met on the way (an array's words are its elements').
 */
function unwrap(schema: ZodLike): { inner: ZodLike; words: FieldWords } {
  let current = schema;
  const words: FieldWords = {};
  for (let i = 0; i < 10; i++) {
    words.label ??= current.meta()?.title;
    const own = fields.valueWords.get(current as never);
    if (own && !words.labels && !words.fieldNames) Object.assign(words, own);
    const def = current._zod.def;
    if (wrappers.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else if (def.type === 'array' && def.element && !words.labels && !words.fieldNames) {
      const element = unwrap(def.element).words;
      if (element.labels) words.labels = element.labels;
      if (element.fieldNames) words.fieldNames = element.fieldNames;
      if (element.apps) words.apps = element.apps;
      break;
    } else break;
  }
  return { inner: current, words };
}

/** Adds what `words` says about a field that `table` does not say yet (the first declaration wins). */
function learn(table: Map<string, FieldWords>, key: string, words: FieldWords): void {
  const known = table.get(key) ?? {};
  table.set(key, {
    label: known.label ?? words.label,
    labels: known.labels ?? words.labels ?? words.values,
    fieldNames: known.fieldNames ?? words.fieldNames,
    apps: known.apps ?? words.apps,
    format: known.format ?? words.format,
  });
}

/** Fields of the audited endpoints' schemas that hold codes with no Chinese words (a test lists them). */
export const codesWithoutWords: string[] = [];

/** Every object property's title and code words in a schema (nested objects and arrays too). */
function collectWords(schema: ZodLike, into: Map<string, FieldWords>, depth = 0, where = ''): void {
  if (depth > 4) return;
  const { inner } = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === 'object' && def.shape) {
    for (const [key, property] of Object.entries(def.shape)) {
      const { inner: value, words } = unwrap(property);
      const element = value._zod.def.element ? unwrap(value._zod.def.element).inner : value;
      if (element._zod.def.type === 'enum' && !words.labels && !words.fieldNames)
        codesWithoutWords.push(`${where} ${key}`);
      learn(into, key, words);
      collectWords(property, into, depth + 1, where);
    }
  } else if (def.type === 'array' && def.element) collectWords(def.element, into, depth + 1, where);
  else if (def.type === 'union' && def.options)
    for (const option of def.options) collectWords(option, into, depth + 1, where);
}

/** Every action the operation log can hold: endpoints' declarations, exports, and operators' sign-ins. */
export const declaredActions: AuditDecl[] = [
  ...endpointEntries.flatMap(([path, def]) =>
    def.audit ? [def.audit] : def.download ? [exportAudit(path, def.summary)] : [],
  ),
  signInAudit,
];
const declared = new Map(declaredActions.map((a) => [a.action, a]));

/** Per action, what its endpoint's input and output say about their fields (an export: its filter's). */
const actionSchemas = new Map<string, Map<string, FieldWords>>();
/** Per target type, what every endpoint about that kind of record says (a removal has no schema of its own). */
const typeSchemas = new Map<string, Map<string, FieldWords>>();
for (const [path, def] of endpointEntries) {
  const decl = def.audit ?? (def.download ? exportAudit(path, def.summary) : undefined);
  if (!decl) continue;
  const actionTable = actionSchemas.get(decl.action) ?? new Map<string, FieldWords>();
  const typeTable = typeSchemas.get(decl.target.type) ?? new Map<string, FieldWords>();
  actionSchemas.set(decl.action, actionTable);
  typeSchemas.set(decl.target.type, typeTable);
  collectWords(def.input as unknown as ZodLike, actionTable, 0, `${path} input`);
  collectWords(def.output as unknown as ZodLike, actionTable, 0, `${path} output`);
  for (const [key, words] of actionTable) learn(typeTable, key, words);
}
/** Per target type, the fields its declarations name (a type may be declared by several features). */
const targetFields = new Map<string, Map<string, FieldWords>>();
for (const decl of declaredActions) {
  const table = targetFields.get(decl.target.type) ?? new Map<string, FieldWords>();
  for (const [key, field] of Object.entries(decl.target.fields)) learn(table, key, field);
  targetFields.set(decl.target.type, table);
}

/**
 * How an action's log rows read a field: its target's declaration first, then the names shared
 * by every feature, then the titles and code words of the action's own schemas, then those of
 * the other endpoints about the same kind of record.
 */
const wordsCache = new Map<string, FieldWords>();
export function fieldWords(action: string, field: string): FieldWords {
  const cacheKey = `${action}\u0000${field}`;
  const cached = wordsCache.get(cacheKey);
  if (cached) return cached;
  const type = declared.get(action)?.target.type ?? '';
  const table = new Map<string, FieldWords>();
  for (const source of [
    targetFields.get(type)?.get(field),
    auditSharedFields[field],
    actionSchemas.get(action)?.get(field),
    typeSchemas.get(type)?.get(field),
  ])
    if (source) learn(table, field, source);
  const words = table.get(field) ?? {};
  wordsCache.set(cacheKey, words);
  return words;
}

/** Any field's name as any record or schema declares it. */
const anyFields = new Map<string, FieldWords>();
for (const table of [...targetFields.values(), ...typeSchemas.values()])
  for (const [key, words] of table) if (words.label) learn(anyFields, key, { label: words.label });
/** The kind of record each domain's writes are about (`users` → user), for its export's filter. */
const domainTypes = new Map<string, string>();
for (const decl of declaredActions)
  if (decl.target.type !== 'export' && !domainTypes.has(decl.action.split('.')[0]))
    domainTypes.set(decl.action.split('.')[0], decl.target.type);

/** A list's column by its name (a sort field): the action's own fields, its domain's records', anyone's. */
function columnLabel(action: string, column: string): string {
  const type = domainTypes.get(action.split('.')[0]) ?? '';
  return (
    fieldWords(action, column).label ??
    targetFields.get(type)?.get(column)?.label ??
    typeSchemas.get(type)?.get(column)?.label ??
    anyFields.get(column)?.label ??
    column
  );
}

const targetLabels = new Map(declaredActions.map((a) => [a.target.type, a.target.label]));
export const actionLabel = (action: string) => declared.get(action)?.label ?? action;
export const targetLabel = (type: string) => targetLabels.get(type) ?? type;
const targetPages = new Map(declaredActions.map((a) => [a.target.type, a.target.page]));

/** The console page a row's target declares, with the query opening the record where it has one. */
export function targetLink(type: string, id: string | null): { page: string; query: string | null } | null {
  const page = targetPages.get(type);
  if (!page) return null;
  const opens = id !== null && page.open !== undefined && /^\d{1,10}$/.test(id);
  return { page: page.key, query: opens ? (page.open ?? '').replaceAll('{id}', id) : null };
}

/** A field's Chinese name (the field itself when nothing declares one: a test finds those). */
export function fieldLabel(action: string, field: string): string {
  return fieldWords(action, field).label ?? field;
}

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A number or text in a declared format. */
function formatted(format: AuditField['format'], value: string | number): string | undefined {
  if (typeof value === 'number') {
    if (format === 'duration') return durationInWords(value);
    if (format === 'fen') return `¥${fenToYuan(value)}`;
    if (format === 'bytes') return formatSize(value);
    return undefined;
  }
  if (format === 'mime') return mimeWords(value);
  if (format === 'file') return fileUrlWords(value);
  return undefined;
}

/** An app's name by its code (the server's AppRegistry.nameOf): apps are data, not contract words. */
export type AppName = (code: string) => string;
const codeItself: AppName = (code) => code;

/**
 * One value in words: its codes' labels, an app's name, its declared format, 是/否, Shanghai
 * times, nested objects as「名称：值」.
 */
function valueText(action: string, field: string, value: unknown, appName: AppName, depth = 0): string {
  if (value === null || value === undefined || value === '') return '空';
  if (typeof value === 'boolean') return value ? '是' : '否';
  const words = fieldWords(action, field);
  if (typeof value === 'string' || typeof value === 'number') {
    const label = words.labels?.find((o) => o.value === value)?.label;
    if (label) return label;
    if (words.apps && typeof value === 'string') return appName(value);
    if (words.fieldNames && typeof value === 'string') return columnLabel(action, value);
    const text = formatted(words.format, value);
    if (text !== undefined) return text;
  }
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    if (field === 'device') return describeDevice(value) ?? value;
    if (isoPattern.test(value)) return value.startsWith('9999-12-31') ? '永久' : formatExactTime(value);
    return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  }
  if (Array.isArray(value)) {
    if (!value.length) return '无';
    const items = value.slice(0, 20).map((item) => valueText(action, field, item, appName, depth + 1));
    return `${items.join('、')}${value.length > 20 ? ` 等 ${value.length} 项` : ''}`;
  }
  if (isPlain(value) && depth < 2) {
    const parts = Object.entries(value)
      .filter(([k, v]) => v !== undefined && v !== null && v !== '' && fieldWords(action, k).format !== 'hidden')
      .map(([k, v]) => `${fieldLabel(action, k)}：${valueText(action, k, v, appName, depth + 1)}`);
    return parts.length ? parts.join('，') : '无';
  }
  return JSON.stringify(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * before/after field by field: fields whose value changed (or that only one side has), each with
 * its Chinese name and both values in words; fields declared `hidden` are left out. A side that
 * is not an object is one row, 内容.
 */
export function diffChanges(action: string, before: unknown, after: unknown, appName = codeItself): Change[] {
  const text = (field: string, v: unknown) => (v === undefined ? null : valueText(action, field, v, appName));
  const objects = (isPlain(before) || before == null) && (isPlain(after) || after == null);
  if (!objects) return [{ field: '', label: '内容', before: text('', before), after: text('', after) }];
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((key) => !(key in b && key in a && same(b[key], a[key])))
    .filter((key) => fieldWords(action, key).format !== 'hidden')
    .map((key) => ({
      field: key,
      label: fieldLabel(action, key),
      before: text(key, b[key]),
      after: text(key, a[key]),
    }));
}

const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** What the list and export select: a log row, its actor's phone and nickname, and its target user's. */
export type EntryRow = Selectable<AuditLogTable> & {
  phone: string | null;
  nickname: string | null;
  target_phone: string | null;
  target_nickname: string | null;
};

/** A user as a log row names them: nickname · masked phone. */
const userName = (u: { phone: string; nickname: string | null }) =>
  u.nickname ? `${u.nickname} · ${maskPhone(u.phone)}` : maskPhone(u.phone);

/** An operation-log row as the page shows it and the export writes it, apps named by `appName`. */
export function presentEntry(r: EntryRow, appName: AppName = codeItself) {
  const before = parse(r.before);
  const after = parse(r.after);
  return {
    id: r.id,
    actorId: r.actor_id,
    actorName: r.phone === null ? null : r.nickname || maskPhone(r.phone),
    actorPhone: r.phone === null ? null : maskPhone(r.phone),
    action: r.action,
    actionLabel: actionLabel(r.action),
    targetType: r.target_type,
    targetLabel: targetLabel(r.target_type),
    targetId: r.target_id,
    targetLink: targetLink(r.target_type, r.target_id),
    targetName: r.target_phone === null ? null : userName({ phone: r.target_phone, nickname: r.target_nickname }),
    changes: diffChanges(r.action, before, after, appName),
    before,
    after,
    ip: r.ip,
    createdAt: iso(r.created_at),
  };
}
export type EntryView = ReturnType<typeof presentEntry>;

import type { AuditDecl } from '@appdesk/contract';
import { endpointEntries } from '@appdesk/contract';
import {
  type auditChange,
  auditFieldNames,
  auditValueLabels,
  exportAudit,
  signInAudit,
} from '@appdesk/contract/endpoints/audit';
import { formatExactTime, maskPhone } from '@appdesk/contract/format';
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

const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The schema under optional/default/pipe wrappers, and the first title met on the way. */
function unwrap(schema: ZodLike): { inner: ZodLike; title?: string } {
  let current = schema;
  let title: string | undefined;
  for (let i = 0; i < 10; i++) {
    title ??= current.meta()?.title;
    const def = current._zod.def;
    if (wrappers.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else break;
  }
  return { inner: current, title };
}

/** Every object property's title in a schema (nested objects and arrays too), first one wins. */
function collectTitles(schema: ZodLike, into: Map<string, string>, depth = 0): void {
  if (depth > 4) return;
  const { inner } = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === 'object' && def.shape) {
    for (const [key, property] of Object.entries(def.shape)) {
      const { title } = unwrap(property);
      if (title && !into.has(key)) into.set(key, title);
      collectTitles(property, into, depth + 1);
    }
  } else if (def.type === 'array' && def.element) collectTitles(def.element, into, depth + 1);
  else if (def.type === 'union' && def.options)
    for (const option of def.options) collectTitles(option, into, depth + 1);
}

/** Every action the operation log can hold: endpoints' declarations, exports, and operators' sign-ins. */
export const declaredActions: AuditDecl[] = [
  ...endpointEntries.flatMap(([path, def]) =>
    def.audit ? [def.audit] : def.download ? [exportAudit(path, def.summary)] : [],
  ),
  signInAudit,
];
const declared = new Map(declaredActions.map((a) => [a.action, a]));

/** Per action, the Chinese names of the fields its endpoint's input and output declare. */
const fieldTitles = new Map<string, Map<string, string>>();
for (const [, def] of endpointEntries) {
  if (!def.audit) continue;
  const titles = fieldTitles.get(def.audit.action) ?? new Map<string, string>();
  collectTitles(def.input as unknown as ZodLike, titles);
  collectTitles(def.output as unknown as ZodLike, titles);
  fieldTitles.set(def.audit.action, titles);
}

const targetLabels = new Map(declaredActions.map((a) => [a.target.type, a.target.label]));
export const actionLabel = (action: string) => declared.get(action)?.label ?? action;
export const targetLabel = (type: string) => targetLabels.get(type) ?? type;

/** A field's Chinese name: the shared names first (they read better in a log), then the endpoint's titles. */
export function fieldLabel(action: string, field: string): string {
  return auditFieldNames[field] ?? fieldTitles.get(action)?.get(field) ?? field;
}

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One value in words: labels for known codes, 是/否, Shanghai times, nested objects as「名称：值」. */
function valueText(action: string, targetType: string, field: string, value: unknown, depth = 0): string {
  if (value === null || value === undefined || value === '') return '空';
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'string') {
    const label = auditValueLabels[targetType]?.[field]?.find((o) => o.value === value)?.label;
    if (label) return label;
    if (field === 'device') return describeDevice(value) ?? value;
    if (isoPattern.test(value)) return value.startsWith('9999-12-31') ? '永久' : formatExactTime(value);
    return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  }
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const items = value.slice(0, 20).map((item) => valueText(action, targetType, field, item, depth + 1));
    return `${items.join('、')}${value.length > 20 ? ` 等 ${value.length} 项` : ''}`;
  }
  if (isPlain(value) && depth < 2) {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => `${fieldLabel(action, k)}：${valueText(action, targetType, k, v, depth + 1)}`);
    return parts.length ? parts.join('，') : '无';
  }
  return JSON.stringify(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * before/after field by field: fields whose value changed (or that only one side has), each with
 * its Chinese name and both values in words. A side that is not an object is one row, 内容.
 */
export function diffChanges(action: string, targetType: string, before: unknown, after: unknown): Change[] {
  const text = (field: string, v: unknown) => (v === undefined ? null : valueText(action, targetType, field, v));
  const objects = (isPlain(before) || before == null) && (isPlain(after) || after == null);
  if (!objects) return [{ field: '', label: '内容', before: text('', before), after: text('', after) }];
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((key) => !(key in b && key in a && same(b[key], a[key])))
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

/** An operation-log row as the page shows it and the export writes it. */
export function presentEntry(r: EntryRow) {
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
    targetName: r.target_phone === null ? null : userName({ phone: r.target_phone, nickname: r.target_nickname }),
    changes: diffChanges(r.action, r.target_type, before, after),
    before,
    after,
    ip: r.ip,
    createdAt: iso(r.created_at),
  };
}
export type EntryView = ReturnType<typeof presentEntry>;

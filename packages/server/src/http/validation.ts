import type { z } from 'zod';

/** Finds the Chinese title a schema gives the field at `path`, walking objects and arrays. */
function titleAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  let current: unknown = schema;
  for (const key of path) {
    current = unwrap(current);
    const def = (current as { def?: { type?: string; shape?: Record<string, unknown>; element?: unknown } }).def;
    if (def?.type === 'object' && typeof key === 'string') current = def.shape?.[key];
    else if (def?.type === 'array') current = def.element;
    else return undefined;
    if (!current) return undefined;
  }
  const meta = (current as { meta?: () => { title?: string } | undefined }).meta?.();
  return meta?.title ?? (unwrapOnce(current) !== current ? titleAt(unwrapOnce(current) as z.ZodType, []) : undefined);
}

function unwrapOnce(schema: unknown): unknown {
  const def = (schema as { def?: { type?: string; innerType?: unknown; in?: unknown } }).def;
  if (def?.type === 'optional' || def?.type === 'nullable' || def?.type === 'default' || def?.type === 'readonly') {
    return def.innerType;
  }
  if (def?.type === 'pipe') return def.in;
  return schema;
}

function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let next = unwrapOnce(current); next !== current; next = unwrapOnce(current)) current = next;
  return current;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Turns the first zod issue into one Chinese sentence that names the field. */
export function describeIssue(schema: z.ZodType, body: unknown, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return '请求参数有误';
  if (issue.path.length === 0) {
    return issue.code === 'invalid_type' ? '请求体必须是 JSON 对象' : issue.message;
  }
  const title = titleAt(schema, issue.path) ?? issue.path.join('.');
  if (issue.code === 'invalid_type' && valueAt(body, issue.path) === undefined) return `缺少${title}`;
  if (issue.code === 'unrecognized_keys') return `不支持的字段：${issue.keys.join('、')}`;
  return issue.message.includes(title) ? issue.message : `${title}：${issue.message}`;
}

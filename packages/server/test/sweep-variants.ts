/**
 * The hostile sweep's inputs, without a server: every field of every endpoint's example replaced,
 * one at a time, by each hostile value, and which of those the endpoint's schema accepts.
 */
import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';

export const hostileText = [
  "' OR '1'='1' --",
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '../../../../etc/passwd',
  'a\u0000b',
  '１３８００１３８０００',
  '😀'.repeat(20),
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4shell probe, on purpose
  '${jndi:ldap://x}',
  '',
  'not-a-member',
  'x'.repeat(200_000),
];

/** Every field of every endpoint gets each of these in turn. */
export const hostileValues: unknown[] = [
  ...hostileText,
  0,
  -1,
  1.5,
  // Integer edges: past int4 (PostgreSQL `integer`), past int8 and past exact doubles (issue 7).
  2 ** 31,
  -(2 ** 31),
  2 ** 53,
  2 ** 63,
  -1e20,
  true,
  null,
  {},
  ['x'],
  { $gt: '' },
];

export const paths = Object.keys(endpoints) as ApiPath[];
export const defOf = (p: ApiPath) => endpoints[p] as EndpointDef;
export const exampleOf = (p: ApiPath) => (defOf(p).example ?? {}) as Record<string, unknown>;

/** What the server receives of a body: the JSON the client sends, parsed. */
export const asSent = <T>(body: T): T => JSON.parse(JSON.stringify(body));

/** The fields an endpoint's schema declares, and any its example adds. */
export function fieldsOf(p: ApiPath): string[] {
  const shape = (defOf(p).input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
  return [...new Set([...Object.keys(shape), ...Object.keys(exampleOf(p))])];
}

export interface Variant {
  field: string;
  value: unknown;
  /** The example with this field replaced, as sent. */
  body: Record<string, unknown>;
  name: string;
  valid: boolean;
}

const describeValue = (v: unknown) => JSON.stringify(v)?.slice(0, 24) ?? String(v);

const variants = new Map<ApiPath, Variant[]>();

/** Every field × every hostile value of an endpoint, in field order, judged by its schema. */
export function variantsOf(p: ApiPath): Variant[] {
  const def = defOf(p);
  const example = exampleOf(p);
  let found = variants.get(p);
  if (!found) {
    found = fieldsOf(p).flatMap((field) =>
      hostileValues.map((value) => {
        const body = asSent({ ...example, [field]: value });
        const valid = def.input.safeParse(body).success;
        return { field, value, body, name: `${field} = ${describeValue(value)}`, valid };
      }),
    );
    variants.set(p, found);
  }
  return found;
}

/** Text an operator or an app might type: hostile, short, and neither empty nor a code. */
const freeText = hostileText.filter((t) => t !== '' && t !== 'not-a-member' && t.length < 100);

/**
 * A field takes free text when its schema accepts hostile text in it (a code list or a pattern
 * that only lets `not-a-member` through still counts: that is text someone typed, too).
 */
export const isTextField = (p: ApiPath, field: string): boolean =>
  variantsOf(p).some((v) => v.field === field && v.valid && typeof v.value === 'string' && v.value !== '');

let texts: { p: ApiPath; field: string }[] | undefined;

/** Every free-text field of every endpoint, uploads' form fields included. */
export function textFields(): { p: ApiPath; field: string }[] {
  texts ??= paths.flatMap((p) => fieldsOf(p).flatMap((field) => (isTextField(p, field) ? [{ p, field }] : [])));
  return texts;
}

/**
 * Hostile texts the field accepts, each with a tag that no other marked value contains, to find it
 * again wherever it was stored: the nastiest first (a handler may refuse what its schema let
 * through, e.g. a code with a space), then plainer ones, the tag joined as the field allows.
 */
export function markedTexts(p: ApiPath, field: string, serial: number): string[] {
  const tag = `q${String(serial).padStart(4, '0')}`;
  const accepted = (value: string) => defOf(p).input.safeParse(asSent({ ...exampleOf(p), [field]: value })).success;
  return [...freeText, 'not-a-member', 'x'].flatMap((base) => {
    const value = ['-', '', ' '].map((joiner) => `${base}${joiner}${tag}`).find(accepted);
    return value ? [value] : [];
  });
}

/**
 * A read: a call the contract declares no operation-log row for and that either an operator makes
 * (the examples test proves those change nothing) or is named a fetch. Its text fields are what to
 * look for, never what to keep.
 */
export const isRead = (p: ApiPath): boolean => {
  const def = defOf(p);
  return !def.audit && (def.access === 'admin' || /\/fetch(\/|$)/.test(p));
};

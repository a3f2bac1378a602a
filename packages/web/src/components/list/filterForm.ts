import dayjs, { type Dayjs } from 'dayjs';
import type { ListValues } from './listState';

/** One control of the search form; its value lives in the URL under `name` (a range: `from`/`to`). */
export type FilterField =
  | { kind: 'text'; name: string; label: string; placeholder: string; width?: number }
  | { kind: 'id'; name: string; label: string; placeholder: string; width?: number }
  | {
      kind: 'select';
      name: string;
      label: string;
      options: { label: string; value: string }[];
      placeholder?: string;
      width?: number;
    }
  | { kind: 'range'; name: 'range'; label: string };

/** What the antd form holds: text and select values, and a range as two days. */
export type FormValues = Record<string, string | [Dayjs, Dayjs] | null | undefined>;

/** The URL's values as the form shows them (a select's "all" is the empty value). */
export function toFormValues(fields: FilterField[], values: ListValues): FormValues {
  const out: FormValues = {};
  for (const field of fields) {
    if (field.kind === 'range') {
      const from = values.from ? dayjs(values.from) : null;
      const to = values.to ? dayjs(values.to) : null;
      out.range = from?.isValid() && to?.isValid() ? [from, to] : null;
    } else {
      out[field.name] = values[field.name] ?? '';
    }
  }
  return out;
}

/** The form's values as a patch of the URL query: blank and cleared values remove their key. */
export function toQueryPatch(fields: FilterField[], form: FormValues): Record<string, string | undefined> {
  const patch: Record<string, string | undefined> = {};
  for (const field of fields) {
    if (field.kind === 'range') {
      const range = form.range as [Dayjs, Dayjs] | null | undefined;
      // A picked day covers the whole day; presets already carry exact ends.
      patch.from = range?.[0] ? range[0].startOf('day').toISOString() : undefined;
      patch.to = range?.[1] ? range[1].endOf('day').toISOString() : undefined;
    } else {
      const value = form[field.name];
      patch[field.name] = typeof value === 'string' && value.trim() ? value.trim() : undefined;
    }
  }
  return patch;
}

/** How many of the fields folded away on a phone (all but the first) hold a value in the URL. */
export function foldedFilters(fields: FilterField[], values: ListValues): number {
  return fields.slice(1).filter((field) => (field.kind === 'range' ? values.from || values.to : values[field.name]))
    .length;
}

import type { FormInstance } from 'antd';
import { useEffect } from 'react';

/** The fields of `input` that differ from `before`: what an update sends. */
export function changedFields<I extends object>(input: I, before: I): Partial<I> {
  return Object.fromEntries(
    Object.entries(input).filter(([key, value]) => value !== before[key as keyof I]),
  ) as Partial<I>;
}

/** A write's `mutate` (useApiAction): the input, and what to do once it succeeded. */
type Send<I> = (input: I, options: { onSuccess: () => void }) => void;

/**
 * A 新建 / 编辑 form's life: filled with the record (or the blank values) when it opens; on 保存,
 * validated, then made, or only its changed fields updated (nothing changed: just closed), and
 * closed once the write succeeded. Asking before discarding edits is EditorDrawer's / EditorModal's.
 */
export function useEditor<V, R, I extends object>(options: {
  form: FormInstance<V>;
  /** The record's id, 'new', or null while closed. */
  target: number | 'new' | null;
  /** The record being edited, once read. */
  record: R | undefined;
  blank: V;
  toValues: (record: R) => V;
  toInput: (values: V) => I;
  make: Send<I>;
  update: Send<{ id: number } & Partial<I>>;
  onClose: () => void;
  /** What an update may change of the changed fields (e.g. never a product's kind). */
  updatable?: (changes: Partial<I>, record: R) => Partial<I>;
}) {
  const { form, target, record, blank, toValues, toInput, make, update, onClose, updatable } = options;

  useEffect(() => {
    if (target === null) return;
    form.setFieldsValue((record ? toValues(record) : blank) as Parameters<typeof form.setFieldsValue>[0]);
  }, [target, record, form, toValues, blank]);

  return async function save() {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const input = toInput(values);
    if (target === 'new') return make(input, { onSuccess: onClose });
    if (target === null || !record) return;
    const changed = changedFields(input, toInput(toValues(record)));
    const changes = updatable ? updatable(changed, record) : changed;
    if (Object.keys(changes).length === 0) return onClose();
    update({ id: target, ...changes }, { onSuccess: onClose });
  };
}

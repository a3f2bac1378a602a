import { App, Form, type FormInstance } from 'antd';
import { type ReactNode, useRef, useState } from 'react';

type FormChange = Parameters<NonNullable<Parameters<typeof Form.Provider>[0]['onFormChange']>>[1];

/**
 * An editor's guard against losing edits: once the operator has changed a field of a form inside it,
 * closing it (Esc, the mask, the cross, 取消) first asks "放弃修改？". Closing after a save goes
 * straight through `onClose`, not `requestClose`. `changed` marks edits kept outside an antd Form
 * (a pasted text, a chosen file).
 */
export function useDiscardGuard(open: boolean, onClose: () => void, changed = false) {
  const { modal } = App.useApp();
  const [dirty, setDirty] = useState(false);
  const [wasOpen, setWasOpen] = useState(open);
  // The forms seen changing: a form reset after a save (a manager dialog that stays open) is no
  // longer touched, and closing it then does not ask.
  const forms = useRef(new Set<Pick<FormInstance, 'isFieldsTouched'>>());
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setDirty(false);
      forms.current.clear();
    }
  }
  const asking = useRef(false);

  const requestClose = () => {
    const touched = dirty && (forms.current.size === 0 || [...forms.current].some((form) => form.isFieldsTouched()));
    if (!touched && !changed) return onClose();
    if (asking.current) return;
    asking.current = true;
    modal.confirm({
      title: '放弃修改？',
      content: '修改还没有保存，关闭后将丢失。',
      okText: '放弃修改',
      okButtonProps: { danger: true },
      cancelText: '继续编辑',
      onOk: onClose,
      afterClose: () => {
        asking.current = false;
      },
    });
  };

  // A field the operator touched (not one the page filled in, nor a validation's change of state).
  const onFormChange = (name: string, info: FormChange) => {
    if (!info.changedFields.some((field) => field.touched)) return;
    const form = info.forms[name];
    if (form) forms.current.add(form);
    setDirty(true);
  };
  return { dirty, requestClose, onFormChange };
}

/** Watches every named antd Form inside `children` for the guard. */
export function DirtyWatch({ guard, children }: { guard: ReturnType<typeof useDiscardGuard>; children: ReactNode }) {
  return <Form.Provider onFormChange={guard.onFormChange}>{children}</Form.Provider>;
}

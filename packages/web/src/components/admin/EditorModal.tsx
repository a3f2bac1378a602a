import { Modal, type ModalProps } from 'antd';
import type { KeyboardEvent } from 'react';
import { DirtyWatch, useDiscardGuard } from './discardGuard';

type Props = Omit<ModalProps, 'open' | 'onCancel'> & {
  open: boolean;
  /** Closes without saving; once a field has changed it runs only after the operator confirms. */
  onCancel: () => void;
  /** Edits kept outside an antd Form (a pasted text, a chosen file, checked boxes). */
  changed?: boolean;
};

/**
 * A dialog that edits something: like antd's Modal, but once the operator has changed a field, closing
 * without saving (Esc, the mask, the cross, 取消) asks "放弃修改？" first, as the editor drawers do.
 * Closing after a save calls the page's own close, not `onCancel`, and so does not ask.
 * Esc is handled here, on the dialog's own box: antd answers Esc only for the portal it believes is on
 * top, and a closed `forceRender` dialog (or an open dropdown) elsewhere on the page keeps that place,
 * so the dialog being edited would ignore the key.
 */
export function EditorModal({ open, onCancel, changed, children, ...rest }: Props) {
  const guard = useDiscardGuard(open, onCancel, changed);
  return (
    <Modal
      {...rest}
      open={open}
      onCancel={guard.requestClose}
      keyboard={false}
      wrapProps={{
        onKeyDown: (event: KeyboardEvent) => {
          // An open dropdown inside (a select, a date picker) takes its own Esc first.
          if (event.key !== 'Escape' || event.nativeEvent.isComposing || event.defaultPrevented) return;
          event.stopPropagation();
          guard.requestClose();
        },
      }}
    >
      <DirtyWatch guard={guard}>{children}</DirtyWatch>
    </Modal>
  );
}

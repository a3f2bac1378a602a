import { Modal, type ModalProps } from 'antd';
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
 */
export function EditorModal({ open, onCancel, changed, children, ...rest }: Props) {
  const guard = useDiscardGuard(open, onCancel, changed);
  return (
    <Modal {...rest} open={open} onCancel={guard.requestClose}>
      <DirtyWatch guard={guard}>{children}</DirtyWatch>
    </Modal>
  );
}

import { Button, Drawer, Space } from 'antd';
import type { ReactNode } from 'react';
import { useIsMobile } from '../useIsMobile';
import { DirtyWatch, useDiscardGuard } from './discardGuard';

/**
 * The drawer every "新建 / 编辑" form opens in: full width on phones, 取消 and 保存 in its header.
 * `loading` shows a skeleton while the edited record is read. Once a field has been changed, closing
 * without saving (Esc, the mask, the cross, 取消) asks first; the page's own `onClose` after a save
 * does not.
 */
export function EditorDrawer(props: {
  title: string;
  open: boolean;
  onClose: () => void;
  onSave: () => void;
  saving: boolean;
  loading?: boolean;
  width?: number;
  children: ReactNode;
}) {
  const mobile = useIsMobile();
  const guard = useDiscardGuard(props.open, props.onClose);
  return (
    <Drawer
      title={props.title}
      open={props.open}
      onClose={guard.requestClose}
      size={mobile ? '100%' : (props.width ?? 640)}
      destroyOnHidden
      loading={props.loading}
      extra={
        <Space>
          <Button onClick={guard.requestClose}>取消</Button>
          <Button type="primary" loading={props.saving} onClick={props.onSave}>
            保存
          </Button>
        </Space>
      }
    >
      <DirtyWatch guard={guard}>{props.children}</DirtyWatch>
    </Drawer>
  );
}

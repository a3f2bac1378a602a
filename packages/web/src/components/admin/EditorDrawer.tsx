import { Button, Drawer, Space } from 'antd';
import type { ReactNode } from 'react';
import { useIsMobile } from '../useIsMobile';

/**
 * The drawer every "新建 / 编辑" form opens in: full width on phones, 取消 and 保存 in its header.
 * `loading` shows a skeleton while the edited record is read.
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
  return (
    <Drawer
      title={props.title}
      open={props.open}
      onClose={props.onClose}
      size={mobile ? '100%' : (props.width ?? 640)}
      destroyOnHidden
      loading={props.loading}
      extra={
        <Space>
          <Button onClick={props.onClose}>取消</Button>
          <Button type="primary" loading={props.saving} onClick={props.onSave}>
            保存
          </Button>
        </Space>
      }
    >
      {props.children}
    </Drawer>
  );
}

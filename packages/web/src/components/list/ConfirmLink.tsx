import { Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';

/**
 * A row action that asks first: a link button under a Popconfirm whose OK button stays loading
 * until `onConfirm` settles (pass an action through `untilSettled`).
 */
export function ConfirmLink(props: {
  title: string;
  description: string;
  okText: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  children: ReactNode;
}) {
  const { title, description, okText, danger, onConfirm, children } = props;
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={okText}
      okButtonProps={danger ? { danger: true } : undefined}
      cancelText="取消"
      onConfirm={onConfirm}
    >
      <Button type="link" size="small" danger={danger}>
        {children}
      </Button>
    </Popconfirm>
  );
}

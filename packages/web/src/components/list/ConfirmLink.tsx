import type { ApiPath } from '@appdesk/contract/types';
import { Button, Popconfirm } from 'antd';
import type { ReactNode } from 'react';
import { useGrants } from '../../state/grants';

/**
 * A row action that asks first: a link button under a Popconfirm whose OK button stays loading
 * until `onConfirm` settles (pass an action through `untilSettled`). With `path`, the endpoint it
 * calls, it is shown only to an operator that endpoint's permission allows.
 */
export function ConfirmLink(props: {
  title: string;
  description: string;
  okText: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  children: ReactNode;
  path?: ApiPath;
}) {
  const { title, description, okText, danger, onConfirm, children, path } = props;
  const { canCall } = useGrants();
  if (path && !canCall(path)) return null;
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

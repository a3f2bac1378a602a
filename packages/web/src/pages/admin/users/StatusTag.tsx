import { formatDateTime } from '@appdesk/contract/format';
import type { AdminUser } from '@appdesk/contract/types';
import { Tag, Tooltip } from 'antd';
import { statusLabels } from './query';

/** 正常, 已封禁, or 封禁至 <time> for a block that ends by itself. */
export function StatusTag({ user }: { user: Pick<AdminUser, 'status' | 'blockedUntil'> }) {
  if (user.status === 'blocked' && user.blockedUntil) {
    return (
      <Tooltip title="到期后自动解封">
        <Tag color="red">封禁至 {formatDateTime(user.blockedUntil)}</Tag>
      </Tooltip>
    );
  }
  return <Tag color={user.status === 'blocked' ? 'red' : 'green'}>{statusLabels[user.status]}</Tag>;
}

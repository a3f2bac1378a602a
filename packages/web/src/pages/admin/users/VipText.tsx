import { VIP_LIFETIME_MS } from '@appdesk/contract/constants';
import { formatDateTime } from '@appdesk/contract/format';
import { Space, Tag } from 'antd';

/** 永久 for a lifetime grant, otherwise the Shanghai time. */
export function vipTime(expires: string | null) {
  if (!expires) return '-';
  return Date.parse(expires) >= VIP_LIFETIME_MS ? '永久' : formatDateTime(expires);
}

/** The VIP cell of the list and the drawer: expiry, and whether it is still running. */
export function VipText({ expires }: { expires: string | null }) {
  if (!expires) return <span className="list-muted">未开通</span>;
  const active = Date.parse(expires) > Date.now();
  return (
    <Space size={4}>
      <span>{vipTime(expires)}</span>
      {active ? <Tag color="gold">有效</Tag> : <Tag>已过期</Tag>}
    </Space>
  );
}

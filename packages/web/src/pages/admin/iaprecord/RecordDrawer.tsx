import { iapRecordStatuses, platforms } from '@appdesk/contract/constants';
import { formatDateTime } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import { Descriptions, Drawer, Empty, Tag, Timeline, Typography } from 'antd';
import { useApiQuery } from '../../../api/hooks';
import { useIsMobile } from '../../../components/useIsMobile';
import { useApps } from '../../../state/apps';
import { environmentLabel, notificationLabel, notificationStatusLabels } from './labels';

const statusColors: Record<string, string> = {
  granted: 'green',
  pending: 'gold',
  rejected: 'red',
  refunded: 'default',
};
export function RecordStatus({ status }: { status: string }) {
  return <Tag color={statusColors[status]}>{labelOf(iapRecordStatuses, status)}</Tag>;
}

const time = (value: string | null) => (value ? formatDateTime(value) : '-');

/** 内购记录详情: who, what, the store's ids and dates, why it was refused, the decoded payload. */
export function RecordDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const mobile = useIsMobile();
  const { nameOf } = useApps();
  const detail = useApiQuery('/api/iaprecord/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const data = id !== null ? detail.data : undefined;
  const r = data?.record;
  return (
    <Drawer
      title="内购记录详情"
      open={id !== null}
      onClose={onClose}
      size={mobile ? '100%' : 640}
      destroyOnHidden
      loading={id !== null && !r}
    >
      {r ? (
        <>
          <Descriptions column={1} size="small" bordered styles={{ label: { width: 120 } }}>
            <Descriptions.Item label="状态">
              <RecordStatus status={r.status} />
              {r.reason ? <div className="list-muted">{r.reason}</div> : null}
            </Descriptions.Item>
            <Descriptions.Item label="用户">{r.userPhone ?? '未知'}</Descriptions.Item>
            <Descriptions.Item label="应用 / 平台">
              {nameOf(r.app)} / {labelOf(platforms, r.platform)}
            </Descriptions.Item>
            <Descriptions.Item label="商品">
              {r.productName ?? '（未配置的商品）'}
              <div className="list-muted" style={{ wordBreak: 'break-all' }}>
                {r.productId || '-'}
              </div>
            </Descriptions.Item>
            <Descriptions.Item label="交易号">
              <Typography.Text copyable={!!r.transactionId} style={{ wordBreak: 'break-all' }}>
                {r.transactionId ?? '-'}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label="原始交易号">{r.originalTransactionId ?? '-'}</Descriptions.Item>
            <Descriptions.Item label="环境">{environmentLabel(r.environment)}</Descriptions.Item>
            <Descriptions.Item label="发放">
              {r.status === 'granted' || r.status === 'refunded'
                ? [r.vipDays ? `会员 ${r.vipDays} 天` : '', r.coins ? `${r.coins} 金币` : '']
                    .filter(Boolean)
                    .join(' + ')
                : '未发放'}
            </Descriptions.Item>
            <Descriptions.Item label="购买时间">{time(r.purchasedAt)}</Descriptions.Item>
            <Descriptions.Item label="到期时间">{time(r.expiresAt)}</Descriptions.Item>
            <Descriptions.Item label="退款时间">{time(r.refundedAt)}</Descriptions.Item>
            <Descriptions.Item label="记录时间">{time(r.createdAt)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 20 }}>
            App Store 服务器通知
          </Typography.Title>
          {data.notifications.length ? (
            <Timeline
              items={data.notifications.map((n) => ({
                key: n.id,
                content: (
                  <>
                    <strong>{notificationLabel(n.type, n.subtype)}</strong> ·{' '}
                    {notificationStatusLabels[n.status] ?? n.status}
                    <div className="list-muted">
                      {formatDateTime(n.createdAt)}
                      {n.reason ? `：${n.reason}` : ''}
                    </div>
                  </>
                ),
              }))}
            />
          ) : (
            <Typography.Paragraph className="list-muted">没有关于这笔交易的服务器通知。</Typography.Paragraph>
          )}
          <Typography.Title level={5}>解码后的交易内容</Typography.Title>
          {data.payload ? (
            <pre
              data-testid="iap-payload"
              style={{ fontSize: 12, background: 'var(--app-code-bg)', padding: 12, overflowX: 'auto' }}
            >
              {JSON.stringify(data.payload, null, 2)}
            </pre>
          ) : (
            <Empty description="无法解码这份收据的内容" />
          )}
        </>
      ) : null}
    </Drawer>
  );
}

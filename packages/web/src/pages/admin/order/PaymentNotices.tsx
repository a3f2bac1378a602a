import { payMethods, paymentNotificationStatuses } from '@appdesk/contract/constants';
import { fenToYuan, formatExactTime } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import { Alert, List, Tag, Typography } from 'antd';
import { useApiQuery } from '../../../api/hooks';

/** Each outcome's tag colour; its words are the contract's. */
const outcomeColors: Record<string, string> = { applied: 'green', rejected: 'red' };

/** Which payment platforms' notifications are on: without merchant keys a method is off, and says so. */
export function PaymentConfigAlert() {
  const config = useApiQuery('/api/payment/fetch/config', {});
  const c = config.data;
  if (!c) return null;
  const off = payMethods.filter((m) => !c[m.value]).map((m) => m.label);
  if (off.length === 0) {
    return (
      <Alert
        showIcon
        type="success"
        style={{ marginBottom: 12 }}
        title="支付宝、微信支付的异步通知已开启：验证通过的付款自动确认收款。"
      />
    );
  }
  return (
    <Alert
      showIcon
      type="warning"
      style={{ marginBottom: 12 }}
      title={`${off.join('、')}未配置商户密钥，已关闭：这些方式的支付通知一律拒绝，订单只能人工确认收款。请服务器管理员在服务器配置中填写商户密钥并重启服务后开启。`}
    />
  );
}

/** The platforms' notifications about one order: what arrived and what became of it. */
export function OrderNotifications({ orderNo }: { orderNo: string }) {
  const page = useApiQuery('/api/payment/fetch/page', { orderNo, size: 50 });
  const list = page.data?.list ?? [];
  return (
    <>
      <Typography.Title level={5} style={{ margin: 0 }}>
        支付通知
      </Typography.Title>
      {list.length === 0 ? (
        <Typography.Text className="list-muted">还没有收到支付平台关于这笔订单的通知。</Typography.Text>
      ) : (
        <List
          size="small"
          dataSource={list}
          renderItem={(n) => (
            <List.Item key={n.id}>
              <div>
                <Tag color={outcomeColors[n.status]}>{labelOf(paymentNotificationStatuses, n.status)}</Tag>
                {labelOf(payMethods, n.method)} · {n.amount === null ? '金额未知' : `¥${fenToYuan(n.amount)}`} ·{' '}
                <span className="list-muted">{formatExactTime(n.createdAt)}</span>
                {n.transactionId ? <div className="list-muted">交易号 {n.transactionId}</div> : null}
                {n.reason ? <div className="list-muted">{n.reason}</div> : null}
              </div>
            </List.Item>
          )}
        />
      )}
    </>
  );
}

import { channels, orderEventKinds, orderStatuses, payMethods } from '@appdesk/contract/constants';
import { fenInWords, fenToYuan, formatExactTime } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import {
  App,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  Result,
  Skeleton,
  Space,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useIsMobile } from '../../../components/useIsMobile';
import { useApps } from '../../../state/apps';
import { useGrants } from '../../../state/grants';
import { OrderNotifications } from './PaymentNotices';

type Detail = ApiOutput<'/api/order/fetch/detail'>;
type OrderRow = Detail['order'];
type OrderEvent = Detail['events'][number];

const statusColor: Record<string, string> = {
  pending: 'orange',
  paid: 'green',
  cancelled: 'default',
  refunded: 'purple',
  closed: 'default',
};

export function StatusTag({ status }: { status: string }) {
  return <Tag color={statusColor[status]}>{labelOf(orderStatuses, status)}</Tag>;
}

export const durationText = (days: number | null) => (days === null ? '永久' : `${days} 天`);
/** A span of VIP time: days to two decimals, or hours and minutes when under a day. */
function daysText(ms: number) {
  if (ms >= 86_400_000) return `${(ms / 86_400_000).toFixed(2).replace(/\.?0+$/, '')} 天`;
  if (ms >= 3_600_000) return `${Math.floor(ms / 3_600_000)} 小时 ${Math.floor((ms % 3_600_000) / 60_000)} 分钟`;
  return ms >= 60_000 ? `${Math.floor(ms / 60_000)} 分钟` : ms > 0 ? '不足 1 分钟' : '0';
}

/** One line of the timeline: what happened, with the amounts and ids finance reconciles by. */
function eventText(e: OrderEvent) {
  const d = (e.detail ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  if (e.kind === 'created')
    parts.push(`金额 ¥${fenToYuan(Number(d.amount))}，${labelOf(payMethods, String(d.payMethod))}`);
  if (e.kind === 'paid') {
    const by =
      d.method === 'manual' || !d.method ? '人工确认收款' : `${labelOf(payMethods, String(d.method))}支付通知确认收款`;
    parts.push(`${by} ¥${fenToYuan(Number(d.amount))}`);
    if (d.transactionId) parts.push(`交易流水号 ${String(d.transactionId)}`);
  }
  if (e.kind === 'granted') {
    parts.push(`会员到期 ${formatExactTime(d.vipBefore as string | null)} → ${formatExactTime(d.vipAfter as string)}`);
    if (Number(d.coins) > 0) parts.push(`赠送金币 ${Number(d.coins).toLocaleString('zh-CN')}`);
  }
  if (e.kind === 'refunded') {
    parts.push(`退款 ¥${fenToYuan(Number(d.amount))}`);
    parts.push(`收回会员 ${daysText(Number(d.vipTakenMs))}、金币 ${Number(d.coinsTaken).toLocaleString('zh-CN')}`);
    if (Number(d.coinsNotTaken) > 0 || Number(d.vipNotTakenMs) > 0) {
      parts.push(
        `未能收回：会员 ${daysText(Number(d.vipNotTakenMs))}（已使用）、金币 ${Number(d.coinsNotTaken).toLocaleString('zh-CN')}（已花掉）`,
      );
    }
  }
  return parts;
}

type ActionKind = 'pay' | 'cancel' | 'refund';
const actionTitles: Record<ActionKind, string> = { pay: '确认收款', cancel: '取消订单', refund: '退款' };
const actionHints: Record<ActionKind, string> = {
  pay: '确认已收到这笔款项：将发放会员时长和赠送金币（只发放一次）。',
  cancel: '取消后用户无法再支付这笔订单。',
  refund: '记录退款（原路退款请在支付平台操作），并收回尚未使用的会员时长和赠送金币。',
};

/** 确认收款 / 取消订单 / 退款: a required note (and for payment the external transaction id). */
function ActionModal({ kind, order, onClose }: { kind: ActionKind | null; order: OrderRow; onClose: () => void }) {
  const [form] = Form.useForm<{ note: string; transactionId?: string }>();
  const { notification } = App.useApp();
  const pay = useApiAction('/api/order/pay');
  const cancel = useApiAction('/api/order/cancel');
  const refund = useApiAction('/api/order/refund', { success: false });
  const pending = pay.isPending || cancel.isPending || refund.isPending;
  const close = () => {
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !kind) return;
    const note = values.note.trim();
    if (kind === 'pay')
      pay.mutate({ id: order.id, note, transactionId: values.transactionId?.trim() ?? '' }, { onSuccess: close });
    if (kind === 'cancel') cancel.mutate({ id: order.id, note }, { onSuccess: close });
    if (kind === 'refund') {
      refund.mutate(
        { id: order.id, note },
        {
          onSuccess: ({ outcome }) => {
            const missed = outcome.coinsNotTaken > 0 || outcome.vipNotTakenMs > 0;
            notification[missed ? 'warning' : 'success']({
              title: '已退款',
              description: `已收回会员 ${daysText(outcome.vipTakenMs)}、金币 ${outcome.coinsTaken.toLocaleString('zh-CN')}。${
                missed
                  ? `未能收回：会员 ${daysText(outcome.vipNotTakenMs)}（已使用）、金币 ${outcome.coinsNotTaken.toLocaleString('zh-CN')}（已花掉）。`
                  : ''
              }`,
              duration: 8,
            });
            close();
          },
        },
      );
    }
  };
  return (
    <EditorModal
      title={kind ? `${actionTitles[kind]} - ${order.orderNo}` : ''}
      open={kind !== null}
      onOk={() => void submit()}
      onCancel={close}
      okText={kind ? actionTitles[kind] : '确定'}
      okButtonProps={{ danger: kind === 'refund' || kind === 'cancel' }}
      cancelText="返回"
      confirmLoading={pending}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{kind ? actionHints[kind] : ''}</Typography.Paragraph>
      <Typography.Paragraph>
        金额：<strong>¥{fenToYuan(order.amount)}</strong>（{fenInWords(order.amount)}）
      </Typography.Paragraph>
      <Form form={form} layout="vertical" autoComplete="off">
        {kind === 'pay' ? (
          <Form.Item
            label="交易流水号（可不填）"
            name="transactionId"
            rules={[{ max: 64, message: '交易流水号最多 64 个字符' }]}
          >
            <Input placeholder="支付平台或银行的流水号" maxLength={64} />
          </Form.Item>
        ) : null}
        <Form.Item label="备注" name="note" rules={formRules(rules.orderNote)}>
          <Input.TextArea
            placeholder={kind === 'pay' ? '例如：客户对公转账已到账' : '例如：用户申请'}
            {...inputLimits(rules.orderNote)}
            showCount
            autoSize={{ minRows: 2, maxRows: 4 }}
          />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}

/** 订单详情: amounts in yuan and in words, times, the external id, the actions and the whole timeline. */
export function OrderDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const mobile = useIsMobile();
  const { nameOf } = useApps();
  const [action, setAction] = useState<ActionKind | null>(null);
  // 确认收款, 取消 and 退款 each for an operator holding its permission (order.pay, order.cancel, order.refund).
  const { canCall } = useGrants();
  const canPay = canCall('/api/order/pay');
  const detail = useApiQuery('/api/order/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const data = detail.data && detail.data.order.id === id ? detail.data : undefined;

  let body: React.ReactNode;
  if (detail.isError)
    body = <Result status="warning" title="订单加载失败" subTitle="该订单可能不存在，或网络出现问题。" />;
  else if (!data) body = <Skeleton active paragraph={{ rows: 10 }} />;
  else {
    const { order, events } = data;
    body = (
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Space wrap>
          {order.status === 'pending' && canPay ? (
            <Button type="primary" onClick={() => setAction('pay')}>
              确认收款
            </Button>
          ) : null}
          {order.status === 'pending' && canCall('/api/order/cancel') ? (
            <Button onClick={() => setAction('cancel')}>取消订单</Button>
          ) : null}
          {(order.status === 'closed' || order.status === 'cancelled') && canPay ? (
            <Button onClick={() => setAction('pay')}>仍已到账，确认收款</Button>
          ) : null}
          {order.status === 'paid' && canCall('/api/order/refund') ? (
            <Button danger onClick={() => setAction('refund')}>
              退款
            </Button>
          ) : null}
        </Space>
        <Descriptions
          bordered
          size="small"
          column={mobile ? 1 : 2}
          items={[
            {
              key: 'no',
              label: '订单号',
              span: mobile ? 1 : 2,
              children: <Typography.Text copyable>{order.orderNo}</Typography.Text>,
            },
            { key: 'status', label: '状态', children: <StatusTag status={order.status} /> },
            { key: 'plan', label: '套餐', children: `${order.planName}（${durationText(order.durationDays)}）` },
            {
              key: 'amount',
              label: '金额',
              span: mobile ? 1 : 2,
              children: (
                <Space wrap>
                  <strong>¥{fenToYuan(order.amount)}</strong>
                  <span className="list-muted">{fenInWords(order.amount)}</span>
                </Space>
              ),
            },
            { key: 'coins', label: '赠送金币', children: order.bonusCoins.toLocaleString('zh-CN') },
            { key: 'user', label: '用户', children: `${order.userPhone}（ID ${order.userId}）` },
            { key: 'method', label: '支付方式', children: labelOf(payMethods, order.payMethod) },
            { key: 'channel', label: '渠道', children: labelOf(channels, order.channel) },
            { key: 'app', label: '应用', children: nameOf(order.app) },
            { key: 'tx', label: '交易流水号', children: order.transactionId || '-' },
            { key: 'created', label: '下单时间', children: formatExactTime(order.createdAt) },
            { key: 'paid', label: '支付时间', children: formatExactTime(order.paidAt) },
            ...(order.status === 'pending'
              ? [{ key: 'expires', label: '自动关闭', children: formatExactTime(order.expiresAt) }]
              : []),
          ]}
        />
        <Typography.Title level={5} style={{ margin: 0 }}>
          时间线
        </Typography.Title>
        <Timeline
          className="order-timeline"
          items={events.map((e) => ({
            key: e.id,
            color: e.kind === 'refunded' ? 'purple' : e.kind === 'closed' || e.kind === 'cancelled' ? 'gray' : 'green',
            children: (
              <div>
                <Space wrap size={8}>
                  <strong>{labelOf(orderEventKinds, e.kind)}</strong>
                  <span className="list-muted">{formatExactTime(e.createdAt)}</span>
                  <span className="list-muted">{e.operatorName ?? '系统'}</span>
                </Space>
                {eventText(e).map((line) => (
                  <div key={line}>{line}</div>
                ))}
                {e.note ? <div className="list-muted">备注：{e.note}</div> : null}
              </div>
            ),
          }))}
        />
        <OrderNotifications orderNo={order.orderNo} />
        <ActionModal kind={action} order={order} onClose={() => setAction(null)} />
      </Space>
    );
  }
  return (
    <Drawer
      title="订单详情"
      open={id !== null}
      onClose={onClose}
      size={mobile ? '100%' : 720}
      destroyOnHidden
      closable={{ 'aria-label': '关闭订单详情' }}
    >
      {body}
    </Drawer>
  );
}

import { ReloadOutlined } from '@ant-design/icons';
import { fenToYuan } from '@appdesk/contract/format';
import type { ApiOutput } from '@appdesk/contract/types';
import { Alert, Button, Card, Skeleton, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useApiQuery } from '../../../api/hooks';
import './dashboard.css';

/** An admin list page (the layout's table imports this page, so its helper is not imported back). */
const adminPath = (key: string) => `/admin/admin/${key}`;

type Cards = ApiOutput<'/api/dashboard/fetch/cards'>['cards'];

interface CardSpec {
  key: keyof Cards;
  title: string;
  /** The list this figure comes from, filtered to it. */
  href: string;
  /** What `previous` is: shown beside the change. */
  versus?: string;
  money?: boolean;
}

const cards: CardSpec[] = [
  { key: 'usersTotal', title: '用户总数', href: adminPath('users'), versus: '较今日零点' },
  { key: 'usersNewToday', title: '今日新增用户', href: adminPath('users'), versus: '较昨日' },
  { key: 'usersActiveToday', title: '今日活跃用户', href: adminPath('users') },
  { key: 'vipsActive', title: '有效会员', href: adminPath('users') },
  {
    key: 'revenueToday',
    title: '今日收入（元）',
    href: `${adminPath('order')}?status=paid`,
    versus: '较昨日',
    money: true,
  },
  {
    key: 'revenue7Days',
    title: '近 7 天收入（元）',
    href: `${adminPath('order')}?status=paid`,
    versus: '较前 7 天',
    money: true,
  },
  {
    key: 'revenue30Days',
    title: '近 30 天收入（元）',
    href: `${adminPath('order')}?status=paid`,
    versus: '较前 30 天',
    money: true,
  },
  { key: 'coinsIssuedToday', title: '今日发放金币', href: adminPath('coin'), versus: '较昨日' },
  { key: 'coinsSpentToday', title: '今日消耗金币', href: adminPath('coin'), versus: '较昨日' },
  { key: 'feedbackPending', title: '待处理反馈', href: `${adminPath('feedback')}?status=pending` },
  { key: 'reviewRewardsPending', title: '待审核好评奖励', href: `${adminPath('reviewreward')}?status=pending` },
  { key: 'exchangesWaiting', title: '待发货兑换', href: `${adminPath('exchangerecord')}?status=waiting` },
];

/** The change against the previous period, in words: 较昨日 +12.5%, or nothing when not comparable. */
function Change({ value, previous, versus }: { value: number; previous: number | null; versus?: string }) {
  if (previous === null || !versus) return <span className="dash-change">实时数值</span>;
  if (previous === 0) {
    return <span className="dash-change">{value === 0 ? `${versus}持平` : `${versus}：上一周期为 0`}</span>;
  }
  const ratio = ((value - previous) / previous) * 100;
  const tone = ratio > 0 ? 'dash-up' : ratio < 0 ? 'dash-down' : '';
  const text = ratio === 0 ? '持平' : `${ratio > 0 ? '↑' : '↓'} ${Math.abs(ratio).toFixed(1)}%`;
  return (
    <span className="dash-change">
      {versus} <span className={tone}>{text}</span>
    </span>
  );
}

/** /admin/admin/dashboard (数据统计): the figures operators look at first after signing in. */
export default function DashboardPage() {
  const [refresh, setRefresh] = useState(false);
  const query = useApiQuery('/api/dashboard/fetch/cards', refresh ? { refresh } : {}, { keepPrevious: true });
  const data = query.data;
  return (
    <div className="dash">
      <div className="dash-head">
        <Typography.Title level={4} className="dash-title">
          数据统计
        </Typography.Title>
        <Button
          icon={<ReloadOutlined />}
          loading={query.isFetching}
          onClick={() => (refresh ? query.refetch() : setRefresh(true))}
        >
          刷新
        </Button>
      </div>
      {query.isError ? (
        <Alert type="error" showIcon message="统计数据加载失败，请稍后刷新重试" />
      ) : !data ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <>
          <div className="dash-cards">
            {cards.map((c) => {
              const figure = data.cards[c.key];
              return (
                <Link key={c.key} to={c.href} className="dash-card-link" data-card={c.key}>
                  <Card size="small" hoverable>
                    <Statistic
                      title={c.title}
                      value={c.money ? fenToYuan(figure.value) : figure.value}
                      groupSeparator=","
                    />
                    <Change value={figure.value} previous={figure.previous} versus={c.versus} />
                  </Card>
                </Link>
              );
            })}
          </div>
          <Typography.Text type="secondary" className="dash-note">
            统计时间 {new Date(data.generatedAt).toLocaleString('zh-CN', { hour12: false })}，数据最多延迟{' '}
            {data.maxAgeSeconds} 秒；“今日”按北京时间零点起算，收入只计已支付订单。
          </Typography.Text>
        </>
      )}
    </div>
  );
}

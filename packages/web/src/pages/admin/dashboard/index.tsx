import { ReloadOutlined } from '@ant-design/icons';
import { type DashboardRange, dashboardRanges } from '@appdesk/contract/constants';
import { fenToYuan, formatExactTime } from '@appdesk/contract/format';
import type { ApiOutput } from '@appdesk/contract/types';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Segmented, Skeleton, Statistic, Tag, Typography } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useApiQuery } from '../../../api/hooks';
import { followsApp, scopeToApp } from '../../../components/list/appScope';
import { useApps, useCurrentApp } from '../../../state/apps';
import './dashboard.css';
import { usePageOpens } from '../../../components/admin/PageLink';

/** ECharts comes with the charts, in a chunk of their own: the cards show without waiting for it. */
const DashboardCharts = lazy(() => import('./Charts'));

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

const DAY = 24 * 60 * 60 * 1000;
const SHANGHAI = 8 * 60 * 60 * 1000;
/** Midnight in Shanghai `daysBack` days before today, as the ISO time the lists' from filter takes. */
const dayStart = (daysBack = 0) =>
  new Date((Math.floor((Date.now() + SHANGHAI) / DAY) - daysBack) * DAY - SHANGHAI).toISOString();
/** The last millisecond of today in Shanghai. */
const dayEnd = () => new Date(Date.parse(dayStart(-1)) - 1).toISOString();
const query = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

/** The cards; links are built when drawn, so "today" is the day the operator looks at. */
const cardSpecs = (): CardSpec[] => [
  { key: 'usersTotal', title: '用户总数', href: adminPath('users'), versus: '较今日零点' },
  {
    key: 'usersNewToday',
    title: '今日新增用户',
    href: adminPath('users') + query({ from: dayStart(), to: dayEnd() }),
    versus: '较昨日',
  },
  {
    key: 'usersActiveToday',
    title: '今日活跃用户',
    href: adminPath('users') + query({ active: 'today', sort: 'lastActiveAt' }),
    versus: '较昨日',
  },
  { key: 'vipsActive', title: '有效会员', href: adminPath('users') + query({ vip: 'active' }), versus: '较昨日' },
  {
    key: 'revenueToday',
    title: '今日收入（元）',
    href: adminPath('order') + query({ status: 'paid', from: dayStart(), to: dayEnd() }),
    versus: '较昨日',
    money: true,
  },
  {
    key: 'revenue7Days',
    title: '近 7 天收入（元）',
    href: adminPath('order') + query({ status: 'paid', from: dayStart(6), to: dayEnd() }),
    versus: '较前 7 天',
    money: true,
  },
  {
    key: 'revenue30Days',
    title: '近 30 天收入（元）',
    href: adminPath('order') + query({ status: 'paid', from: dayStart(29), to: dayEnd() }),
    versus: '较前 30 天',
    money: true,
  },
  {
    key: 'coinsIssuedToday',
    title: '今日发放金币',
    href: adminPath('coin') + query({ direction: 'in', from: dayStart(), to: dayEnd() }),
    versus: '较昨日',
  },
  {
    key: 'coinsSpentToday',
    title: '今日消耗金币',
    href: adminPath('coin') + query({ direction: 'out', from: dayStart(), to: dayEnd() }),
    versus: '较昨日',
  },
  {
    key: 'feedbackPending',
    title: '待处理反馈',
    href: adminPath('feedback') + query({ status: 'pending' }),
    versus: '较昨日',
  },
  {
    key: 'reviewRewardsPending',
    title: '待审核好评奖励',
    href: adminPath('reviewreward') + query({ status: 'pending' }),
    versus: '较昨日',
  },
  {
    key: 'exchangesWaiting',
    title: '待发货兑换',
    href: adminPath('exchangerecord') + query({ status: 'waiting' }),
    versus: '较昨日',
  },
];

/** The change against the previous period, in words: 较昨日 +12.5%, or nothing when not comparable. */
function Change({ value, previous, versus }: { value: number; previous: number | null; versus?: string }) {
  if (previous === null || !versus) return <span className="dash-change">暂无上一周期数据</span>;
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

/**
 * The newest figures answered (generatedAt) for one request (`key`: the app, the charts' range):
 * behind several instances a 刷新 may be answered from another instance's kept copy, older than the
 * figures on screen, which must not go back in time. A placeholder (the previous request's answer,
 * shown while the new one loads) is never taken for the new request's.
 */
function useNewest<T extends { generatedAt: string }>(
  data: T | undefined,
  key: string,
  placeholder: boolean,
): T | undefined {
  const shown = useRef<{ key: string; data: T } | undefined>(undefined);
  const current = shown.current;
  if (data && !placeholder) {
    const older = current?.key === key && Date.parse(data.generatedAt) < Date.parse(current.data.generatedAt);
    if (!older) shown.current = { key, data };
  }
  return shown.current?.data ?? data;
}

const rangeOf = (value: string | null): DashboardRange =>
  dashboardRanges.find((r) => r.value === value)?.value ?? 'week';

/** The charts of a range preset (kept in the URL as ?range=), drawn once ECharts has loaded. */
function ChartsSection({ refresh, app }: { refresh: boolean; app: string | undefined }) {
  const [params, setParams] = useSearchParams();
  const range = rangeOf(params.get('range'));
  const rangeLabel = dashboardRanges.find((r) => r.value === range)?.label ?? '';
  const path = '/api/dashboard/fetch/charts';
  const charts = useApiQuery(path, scopeToApp(path, refresh ? { range, refresh } : { range }, app), {
    keepPrevious: true,
  });
  const chartData = useNewest(charts.data, `${range} ${app ?? ''}`, charts.isPlaceholderData);
  const placeholder = <Skeleton active paragraph={{ rows: 8 }} />;
  return (
    <section className="dash-section" aria-label="统计图表">
      <div className="dash-head">
        <Typography.Title level={5} className="dash-title">
          趋势与分布
        </Typography.Title>
        <Segmented
          value={range}
          options={dashboardRanges.map((r) => ({ value: r.value, label: r.label }))}
          onChange={(value) =>
            setParams((prev) => ({ ...Object.fromEntries(prev), range: String(value) }), { replace: true })
          }
        />
      </div>
      {charts.isError ? (
        <Alert type="error" showIcon message="图表数据加载失败，请稍后刷新重试" />
      ) : !chartData ? (
        placeholder
      ) : (
        <Suspense fallback={placeholder}>
          <DashboardCharts data={chartData} rangeLabel={rangeLabel} />
        </Suspense>
      )}
      <Typography.Text type="secondary" className="dash-note">
        今日按小时统计，本周（周一起）、本月、本年按天统计，均为北京时间，数据最多延迟 60
        秒；收入按支付时间计入，退款后扣除；活跃用户为该时段内使用过 App 的不同用户数。
      </Typography.Text>
    </section>
  );
}

/** /admin/admin/dashboard (数据统计): the figures operators look at first after signing in. */
export default function DashboardPage() {
  const queryClient = useQueryClient();
  const [refresh, setRefresh] = useState(false);
  // Every card follows the header's app when its call takes one (components/list/appScope.ts).
  const app = useCurrentApp();
  const { nameOf } = useApps();
  const path = '/api/dashboard/fetch/cards';
  const scoped = followsApp(path) && app !== undefined;
  const query = useApiQuery(path, scopeToApp(path, refresh ? { refresh } : {}, app), { keepPrevious: true });
  const data = useNewest(query.data, app ?? '', query.isPlaceholderData);
  // A card opens its page's list only for an operator whose roles open that page.
  const opens = usePageOpens();
  return (
    <div className="dash">
      <div className="dash-head">
        <Typography.Title level={4} className="dash-title">
          数据统计
          {scoped ? <Tag className="dash-app">{nameOf(app)}</Tag> : null}
        </Typography.Title>
        <Button
          icon={<ReloadOutlined aria-hidden />}
          loading={query.isFetching}
          onClick={() => {
            if (!refresh) return setRefresh(true);
            void query.refetch();
            void queryClient.refetchQueries({ queryKey: ['/api/dashboard/fetch/charts'] });
          }}
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
            {cardSpecs().map((c) => {
              const figure = data.cards[c.key];
              const linked = opens(c.href);
              const card = (
                <Card key={c.key} size="small" hoverable={linked}>
                  <Statistic
                    title={c.title}
                    value={c.money ? fenToYuan(figure.value) : figure.value}
                    groupSeparator=","
                  />
                  <Change value={figure.value} previous={figure.previous} versus={c.versus} />
                </Card>
              );
              return linked ? (
                <Link key={c.key} to={c.href} className="dash-card-link" data-card={c.key}>
                  {card}
                </Link>
              ) : (
                <div key={c.key} className="dash-card-link" data-card={c.key}>
                  {card}
                </div>
              );
            })}
          </div>
          <Typography.Text type="secondary" className="dash-note">
            统计时间 <span data-generated-at>{formatExactTime(data.generatedAt)}</span>（北京时间），数据最多延迟{' '}
            {data.maxAgeSeconds}{' '}
            秒；“今日”按北京时间零点起算，收入只计已支付订单；待处理类数字与昨日最后一次统计的数值比较。
          </Typography.Text>
        </>
      )}
      <ChartsSection refresh={refresh} app={app} />
    </div>
  );
}

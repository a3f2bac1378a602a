import {
  AppstoreOutlined,
  AuditOutlined,
  CloudUploadOutlined,
  CommentOutlined,
  CrownOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FileDoneOutlined,
  FundOutlined,
  GiftOutlined,
  KeyOutlined,
  LikeOutlined,
  MailOutlined,
  MoneyCollectOutlined,
  PictureOutlined,
  ProfileOutlined,
  QuestionCircleOutlined,
  RocketOutlined,
  SettingOutlined,
  ShoppingOutlined,
  SoundOutlined,
  SwapOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ComponentType, LazyExoticComponent, ReactNode } from 'react';
import { lazyPage } from '../components/lazyPage';

export interface AdminPage {
  /** Path segment under /admin/admin/. */
  key: string;
  label: string;
  icon: ReactNode;
  Component: LazyExoticComponent<ComponentType>;
}

/** Every admin page of spec section 2, in that order; each one is its own lazy chunk. */
export const adminPages: AdminPage[] = [
  {
    key: 'dashboard',
    label: '数据统计',
    icon: <DashboardOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/dashboard')),
  },
  {
    key: 'users',
    label: '用户管理',
    icon: <TeamOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/users')),
  },
  {
    key: 'version',
    label: '版本管理',
    icon: <RocketOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/version')),
  },
  {
    key: 'plan',
    label: '会员套餐',
    icon: <CrownOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/plan')),
  },
  {
    key: 'order',
    label: '订单管理',
    icon: <ProfileOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/order')),
  },
  {
    key: 'iap',
    label: '内购商品',
    icon: <ShoppingOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/iap')),
  },
  {
    key: 'iaprecord',
    label: '内购记录',
    icon: <FileDoneOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/iaprecord')),
  },
  {
    key: 'exchange',
    label: '兑换商品',
    icon: <GiftOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/exchange')),
  },
  {
    key: 'exchangerecord',
    label: '兑换记录',
    icon: <SwapOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/exchangerecord')),
  },
  {
    key: 'selfapp',
    label: '自家应用',
    icon: <AppstoreOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/selfapp')),
  },
  {
    key: 'selfapprecord',
    label: '推广记录',
    icon: <FundOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/selfapprecord')),
  },
  {
    key: 'feedback',
    label: '意见反馈',
    icon: <CommentOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/feedback')),
  },
  {
    key: 'feedbackv2',
    label: '反馈工单',
    icon: <CustomerServiceOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/feedbackv2')),
  },
  {
    key: 'unsplash',
    label: '图片管理',
    icon: <PictureOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/unsplash')),
  },
  {
    key: 'soundeffect',
    label: '音效管理',
    icon: <SoundOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/soundeffect')),
  },
  {
    key: 'a11t',
    label: '键值配置',
    icon: <KeyOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/a11t')),
  },
  {
    key: 'upload',
    label: '文件管理',
    icon: <CloudUploadOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/upload')),
  },
  {
    key: 'help',
    label: '帮助文档',
    icon: <QuestionCircleOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/help')),
  },
  {
    key: 'message',
    label: '站内消息',
    icon: <MailOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/message')),
  },
  {
    key: 'coin',
    label: '金币流水',
    icon: <MoneyCollectOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/coin')),
  },
  {
    key: 'audit',
    label: '操作日志',
    icon: <AuditOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/audit')),
  },
  {
    key: 'reviewreward',
    label: '好评奖励',
    icon: <LikeOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/reviewreward')),
  },
  {
    key: 'allocation',
    label: '站点配置',
    icon: <SettingOutlined aria-hidden />,
    Component: lazyPage(() => import('../pages/admin/allocation')),
  },
];

export const adminPath = (key: string): string => `/admin/admin/${key}`;

import {
  AppstoreOutlined,
  AuditOutlined,
  BugOutlined,
  CloudUploadOutlined,
  CommentOutlined,
  CrownOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DesktopOutlined,
  FileDoneOutlined,
  FundOutlined,
  GiftOutlined,
  InboxOutlined,
  KeyOutlined,
  LikeOutlined,
  LoginOutlined,
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
  UserOutlined,
} from '@ant-design/icons';
import type { ComponentType, ReactNode } from 'react';
import { lazyPage } from '../components/lazyPage';
import { adminPageChunks } from './adminChunks';

export interface AdminPage {
  /** Path segment under /admin/admin/. */
  key: string;
  label: string;
  /** The menu group it sits in (see adminMenuGroups). */
  group: AdminMenuGroup;
  /** false: reached from the header (个人中心, 消息中心), not listed in the side menu. */
  inMenu?: false;
  /**
   * One line under the page's title (and the menu entry's tooltip) saying what feeds the page, for
   * pages an operator could take for one another (站内消息 and 消息中心, 意见反馈 and 反馈工单).
   */
  hint?: string;
  icon: ReactNode;
  Component: ComponentType;
}

/** The menu's groups, in order: 22 flat entries did not fit a 768 px high screen. */
export const adminMenuGroups = [
  { key: 'overview', label: '概览' },
  { key: 'people', label: '用户与消息' },
  { key: 'release', label: '版本与配置' },
  { key: 'commerce', label: '商业化' },
  { key: 'content', label: '内容与素材' },
  { key: 'system', label: '系统' },
] as const;
export type AdminMenuGroup = (typeof adminMenuGroups)[number]['key'];

/**
 * Every admin page of docs/spec-notes.md#2-routes-layouts-and-pages, in that order, then the workspace's own pages; each one is
 * its own lazy chunk.
 */
export const adminPages: AdminPage[] = [
  {
    key: 'dashboard',
    group: 'overview',
    label: '数据统计',
    icon: <DashboardOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.dashboard),
  },
  {
    key: 'users',
    group: 'people',
    label: '用户管理',
    icon: <TeamOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.users),
  },
  {
    key: 'version',
    group: 'release',
    label: '版本管理',
    icon: <RocketOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.version),
  },
  {
    key: 'plan',
    group: 'commerce',
    label: '会员套餐',
    icon: <CrownOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.plan),
  },
  {
    key: 'order',
    group: 'commerce',
    label: '订单管理',
    icon: <ProfileOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.order),
  },
  {
    key: 'iap',
    group: 'commerce',
    label: '内购商品',
    icon: <ShoppingOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.iap),
  },
  {
    key: 'iaprecord',
    group: 'commerce',
    label: '内购记录',
    icon: <FileDoneOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.iaprecord),
  },
  {
    key: 'exchange',
    group: 'commerce',
    label: '兑换商品',
    icon: <GiftOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.exchange),
  },
  {
    key: 'exchangerecord',
    group: 'commerce',
    label: '兑换记录',
    icon: <SwapOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.exchangerecord),
  },
  {
    key: 'selfapp',
    group: 'commerce',
    label: '自家应用',
    icon: <AppstoreOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.selfapp),
  },
  {
    key: 'selfapprecord',
    group: 'commerce',
    label: '推广记录',
    icon: <FundOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.selfapprecord),
  },
  {
    key: 'feedback',
    group: 'people',
    label: '意见反馈',
    hint: 'App 的“意见反馈”表单提交到这里：不登录也能提交，回复以站内消息送达',
    icon: <CommentOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.feedback),
  },
  {
    key: 'feedbackv2',
    group: 'people',
    label: '反馈工单',
    hint: 'App 里已登录用户发起的反馈会话：按分类、可多轮往来',
    icon: <CustomerServiceOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.feedbackv2),
  },
  {
    key: 'unsplash',
    group: 'content',
    label: '图片管理',
    icon: <PictureOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.unsplash),
  },
  {
    key: 'soundeffect',
    group: 'content',
    label: '音效管理',
    icon: <SoundOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.soundeffect),
  },
  {
    key: 'a11t',
    group: 'release',
    label: '键值配置',
    icon: <KeyOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.a11t),
  },
  {
    key: 'upload',
    group: 'release',
    label: '文件管理',
    icon: <CloudUploadOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.upload),
  },
  {
    key: 'help',
    group: 'release',
    label: '帮助文档',
    icon: <QuestionCircleOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.help),
  },
  {
    key: 'message',
    group: 'people',
    label: '站内消息',
    hint: '发给 App 用户的消息：App 的消息列表读取这里',
    icon: <MailOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.message),
  },
  {
    key: 'coin',
    group: 'people',
    label: '金币流水',
    icon: <MoneyCollectOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.coin),
  },
  {
    key: 'audit',
    group: 'system',
    label: '操作日志',
    icon: <AuditOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.audit),
  },
  {
    key: 'loginlog',
    group: 'system',
    label: '登录日志',
    icon: <LoginOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.loginlog),
  },
  {
    key: 'reviewreward',
    group: 'commerce',
    label: '好评奖励',
    icon: <LikeOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.reviewreward),
  },
  {
    key: 'allocation',
    group: 'system',
    label: '站点配置',
    icon: <SettingOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.allocation),
  },
  {
    key: 'online',
    group: 'system',
    label: '在线用户',
    icon: <DesktopOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.online),
  },
  {
    key: 'clienterror',
    group: 'system',
    label: '前端错误',
    icon: <BugOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.clienterror),
  },
  {
    key: 'account',
    group: 'system',
    inMenu: false,
    label: '个人中心',
    icon: <UserOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.account),
  },
  {
    key: 'inbox',
    group: 'people',
    inMenu: false,
    label: '消息中心',
    hint: '发给你本人（当前管理员账号）的消息，由右上角铃铛进入',
    icon: <InboxOutlined aria-hidden />,
    Component: lazyPage(adminPageChunks.inbox),
  },
];

export const adminPath = (key: string): string => `/admin/admin/${key}`;

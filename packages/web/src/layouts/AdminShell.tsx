import { KeyOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { Code } from '@appdesk/contract/codes';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Drawer, Layout } from 'antd';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { call } from '../api/request';
import { NoRolesNotice } from '../components/admin/NoRolesNotice';
import { NoticeBell } from '../components/admin/NoticeBell';
import { PasswordModal } from '../components/admin/PasswordModal';
import { lazyExport } from '../components/lazyPage';
import { useIsMobile } from '../components/useIsMobile';
import { navigate as navigateAnywhere } from '../nav';
import { allocationStore, loadAllocation, redirectIfNotInitialised } from '../state/allocation';
import { fetchNotices, fetchUnreadMessages, globalStore, setCollapsed } from '../state/global';
import { clearSession, clearSessionCookie, restoreLogin, updateStoredUser, userStore } from '../state/session';
import { useStore } from '../state/store';
import { AppSwitcher } from './AppSwitcher';
import { preparePage } from './adminBoot';
import { adminPages, adminPath } from './adminPages';
import { SideMenu } from './SideMenu';
import { TabWorkspace } from './TabWorkspace';
import { ThemeSwitch } from './ThemeSwitch';
import { sensitivePages, useWatermarkMode, watermarkText } from './watermark';
import './admin.css';

const { Header, Sider, Content } = Layout;

// Only an unknown console URL shows it (antd's Result and its pictures).
const ExceptionView = lazyExport(() => import('../pages/exception'), 'ExceptionView');

export function AdminNotFound() {
  const navigate = useNavigate();
  return (
    <Suspense fallback={null}>
      <ExceptionView status="404" onBack={() => navigate(adminPath('dashboard'))} backText="返回数据统计" />
    </Suspense>
  );
}

export async function logout(): Promise<void> {
  try {
    await call('/api/users/logout', {}, { silent: true });
  } catch {
    // Signing out locally is what matters.
  }
  clearSession();
  clearSessionCookie();
  navigateAnywhere('/user/login', { replace: true });
}

/** Focus moves to the page shown (its tab panel), so the next Tab is the page's first control. */
function skipToContent() {
  const main = document.getElementById('admin-main');
  const panel = main?.querySelector<HTMLElement>('[role="tabpanel"]:not([hidden])');
  (panel ?? main)?.focus();
}

/** The admin console frame: side menu (drawer on mobile), header with bell and account actions. */
export function AdminShell() {
  const location = useLocation();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const collapsed = useStore(globalStore, (s) => s.collapsed);
  const user = useStore(userStore, (s) => s.currentUser);
  const allocation = useStore(allocationStore, (s) => s.allocation);
  const [passwordOpen, setPasswordOpen] = useState(false);

  useEffect(() => {
    restoreLogin();
    void loadAllocation().then(redirectIfNotInitialised);
    void call('/api/users/fetch/info')
      .then((res) => {
        const fresh = res.code === Code.OK ? res.data?.user : undefined;
        if (!fresh) return;
        updateStoredUser(fresh);
        if (!fresh.isAdmin) navigateAnywhere('/exception/403', { replace: true });
      })
      .catch(() => undefined);
    void fetchNotices();
    void fetchUnreadMessages();
  }, []);

  const segment = location.pathname.split('/')[3] ?? '';
  const watermarkMode = useWatermarkMode();
  const mark = user ? watermarkText(user.name, user.phone ?? '') : null;
  const watermarkOf = (key: string) =>
    watermarkMode === 'all' || (watermarkMode === 'sensitive' && sensitivePages.has(key)) ? mark : null;
  const current = adminPages.find((p) => p.key === segment);
  const siteTitle = allocation?.title || 'AppDesk';
  // An unknown console URL shows the 404 view: it is named like a page, in the header and the window.
  const pageTitle = current?.label ?? '页面不存在';

  useEffect(() => {
    document.title = `${pageTitle} - ${siteTitle} 管理后台`;
  }, [pageTitle, siteTitle]);

  const queryClient = useQueryClient();
  const openPage = useCallback(
    (key: string) => {
      // The page's code and first rows load while the console switches to it.
      preparePage(key, '', (path, input) => queryClient.getQueryData([path, input]) !== undefined);
      navigate(adminPath(key));
      if (mobile) setCollapsed(true);
    },
    [queryClient, navigate, mobile],
  );
  const menu = (inlineCollapsed: boolean) => (
    <SideMenu current={current?.key} collapsed={inlineCollapsed} onOpenPage={openPage} />
  );

  const brand = (showTitle: boolean) => (
    <div className="admin-brand">
      {allocation?.logo ? (
        <img src={allocation.logo} alt="" width={32} height={32} />
      ) : (
        <span className="admin-brand-mark" aria-hidden="true">
          {siteTitle.slice(0, 1)}
        </span>
      )}
      {showTitle ? <span className="admin-brand-title">{siteTitle}</span> : null}
    </div>
  );

  return (
    <Layout className="admin-layout">
      {/* The keyboard's way past the menu, the header and the tabs, to the page shown. */}
      <button type="button" className="admin-skip" onClick={skipToContent}>
        跳到主要内容
      </button>
      {mobile ? (
        <Drawer
          placement="left"
          open={!collapsed}
          onClose={() => setCollapsed(true)}
          size={232}
          closable={false}
          title={null}
          styles={{ body: { padding: 0, background: '#001529' } }}
        >
          <nav aria-label="管理菜单">
            {brand(true)}
            {menu(false)}
          </nav>
        </Drawer>
      ) : (
        <Sider collapsible collapsed={collapsed} trigger={null} width={208} collapsedWidth={64} className="admin-sider">
          <nav aria-label="管理菜单">
            {brand(!collapsed)}
            {menu(collapsed)}
          </nav>
        </Sider>
      )}
      <Layout>
        <Header className="admin-header">
          <Button
            type="text"
            className="admin-trigger"
            aria-label={collapsed ? '展开菜单' : '收起菜单'}
            icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
            onClick={() => setCollapsed(!collapsed, { remember: !mobile })}
          />
          <div className="admin-page-heading">
            <h1 className="admin-page-title">{pageTitle}</h1>
            {current?.hint && !mobile ? <p className="admin-page-hint">{current.hint}</p> : null}
          </div>
          <div className="admin-actions">
            <AppSwitcher compact={mobile} />
            <ThemeSwitch compact />
            <NoticeBell onOpenLink={(link) => navigate(link)} />
            <Button
              type="text"
              className="admin-user"
              aria-label={`个人中心：${user?.name ?? ''}`}
              onClick={() => navigate(adminPath('account'))}
            >
              <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined aria-hidden />} alt="" />
              {mobile ? null : <span>{user?.name ?? ''}</span>}
            </Button>
            {/* On a phone the words would squeeze the page title out: icons, named for screen readers. */}
            <Button
              type="text"
              icon={<KeyOutlined aria-hidden />}
              aria-label={mobile ? '修改密码' : undefined}
              onClick={() => setPasswordOpen(true)}
            >
              {mobile ? null : '修改密码'}
            </Button>
            <Button
              type="text"
              icon={<LogoutOutlined aria-hidden />}
              aria-label={mobile ? '退出登录' : undefined}
              onClick={() => void logout()}
            >
              {mobile ? null : '退出登录'}
            </Button>
          </div>
        </Header>
        <Content className="admin-content" id="admin-main" tabIndex={-1}>
          <NoRolesNotice />
          <TabWorkspace watermarkOf={watermarkOf} fallback={<AdminNotFound />} />
        </Content>
      </Layout>
      <PasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Layout>
  );
}

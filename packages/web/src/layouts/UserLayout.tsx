import { useEffect, useSyncExternalStore } from 'react';
import { AntdRoot } from '../components/AntdRoot';
import { AppLink } from '../components/AppLink';
import { BigSpinner } from '../components/BigSpinner';
import { lazyPage } from '../components/lazyPage';
import { currentHref, navigate, subscribeLocation, under } from '../nav';
import LoginPage from '../pages/user/login';
import { allocationStore, loadAllocation, redirectIfNotInitialised } from '../state/allocation';
import { restoreLogin } from '../state/session';
import { useStore } from '../state/store';
import './user.css';
import { Suspense } from 'react';

const ExceptionPage = lazyPage(() => import('../pages/exception'));
const AllocationPage = lazyPage(() => import('../pages/allocation'));
const EmailValidatePage = lazyPage(() => import('../pages/email/validate'));

type Status = '403' | '404' | '500';
/** The window's title of each exception page (it said 提示 for all three). */
const statusNames: Record<Status, string> = { '403': '无权访问', '404': '页面不存在', '500': '服务器出错' };

/** The exception a path shows: /exception/403 and /500 name theirs; any other path here is a 404. */
function statusOf(pathname: string): Status | null {
  if (['/user/login', '/user', '/user/'].includes(pathname)) return null;
  if (under(pathname, '/allocation') || under(pathname, '/email/validate')) return null;
  const code = under(pathname, '/exception') ? pathname.split('/')[2] : '';
  return code === '403' || code === '500' ? code : '404';
}

function pageFor(pathname: string) {
  if (pathname === '/user/login') return <LoginPage />;
  if (under(pathname, '/allocation')) return <AllocationPage />;
  if (under(pathname, '/email/validate')) return <EmailValidatePage />;
  return <ExceptionPage status={statusOf(pathname) ?? '404'} />;
}

/** User layout: login, exception pages, first-run setup and e-mail validation. */
export default function UserLayout() {
  const href = useSyncExternalStore(subscribeLocation, currentHref);
  const pathname = href.split('?')[0];
  const allocation = useStore(allocationStore, (s) => s.allocation);

  useEffect(() => {
    restoreLogin();
    void loadAllocation().then(redirectIfNotInitialised);
  }, []);

  useEffect(() => {
    if (pathname === '/user' || pathname === '/user/') navigate('/user/login', { replace: true });
  }, [pathname]);

  useEffect(() => {
    const base = allocation?.title || 'AppDesk';
    const names: Record<string, string> = {
      '/user/login': '登录',
      '/allocation': '站点初始化',
      '/email/validate': '邮箱验证',
    };
    const status = statusOf(pathname);
    const name = names[pathname] ?? (status ? statusNames[status] : '');
    document.title = name ? `${name} - ${base}` : base;
  }, [allocation?.title, pathname]);

  const title = allocation?.title || 'AppDesk';
  return (
    <AntdRoot>
      <div className="user-layout">
        <header className="user-header">
          <AppLink href="/" className="user-brand">
            {allocation?.logo ? (
              <img src={allocation.logo} alt="" width={44} height={44} className="user-logo" />
            ) : (
              <span className="user-logo-mark" aria-hidden="true">
                {title.slice(0, 1)}
              </span>
            )}
            <span className="user-title">{title}</span>
          </AppLink>
          {allocation?.slogen ? <p className="user-slogen">{allocation.slogen}</p> : null}
        </header>
        <main className="user-main">
          <Suspense fallback={<BigSpinner />}>{pageFor(pathname)}</Suspense>
        </main>
        <footer className="user-footer">
          © {new Date().getFullYear()} {title}
        </footer>
      </div>
    </AntdRoot>
  );
}

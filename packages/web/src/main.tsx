import './base.css';
import { StrictMode, Suspense, startTransition, useLayoutEffect, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { BigSpinner } from './components/BigSpinner';
import { ChunkBoundary } from './components/ChunkBoundary';
import { lazyPage } from './components/lazyPage';
import { currentHref, installHistoryEvents, navigate, subscribeLocation, trackPageview, under } from './nav';
import { loadAllocation } from './state/allocation';
import { installErrorReporter } from './state/errorReporter';
import { adminRedirect, restoreLogin } from './state/session';

/**
 * Entry: a tiny prefix dispatcher (docs/spec-notes.md#2-routes-layouts-and-pages). No router and no antd here, so the public
 * home page stays light; each layout is its own lazy chunk.
 */
const UserLayout = lazyPage(() => import('./layouts/UserLayout'));
const AdminLayout = lazyPage(() => import('./layouts/AdminLayout'));
const FrontLayout = lazyPage(() => import('./layouts/FrontLayout'));

type LayoutName = 'user' | 'admin' | 'front';

export function pickLayout(pathname: string): LayoutName {
  if (['/user', '/exception', '/allocation', '/email/validate'].some((prefix) => under(pathname, prefix)))
    return 'user';
  if (under(pathname, '/admin')) return 'admin';
  return 'front';
}

function Root() {
  const href = useSyncExternalStore(subscribeLocation, currentHref);
  const pathname = href.split('?')[0];
  const layout = pickLayout(pathname);
  const redirect = layout === 'admin' ? adminRedirect() : null;

  useLayoutEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);

  useLayoutEffect(() => {
    trackPageview(href);
  }, [href]);

  if (redirect) return <BigSpinner />;
  const Layout = layout === 'user' ? UserLayout : layout === 'admin' ? AdminLayout : FrontLayout;
  return (
    <ChunkBoundary key={layout}>
      <Suspense fallback={<BigSpinner />}>
        <Layout />
      </Suspense>
    </ChunkBoundary>
  );
}

// Production builds tell our server about their uncaught errors (listed under 前端错误); first, to see the rest fail too.
if (import.meta.env.PROD) installErrorReporter(__APP_RELEASE__);
installHistoryEvents();
// Start the site configuration request while the layout chunk downloads.
void loadAllocation();
// A console page: its code and first rows are asked for now, beside the layout's code, not after it.
if (under(window.location.pathname, '/admin/admin') && !adminRedirect()) {
  // The operator is known before the console's first render, which then need not be redone for them.
  restoreLogin();
  const page = window.location.pathname.split('/')[3] ?? '';
  import('./layouts/adminBoot').then((boot) => boot.startConsole(page, window.location.search)).catch(() => undefined);
}

const container = document.getElementById('root');
if (container) {
  const root = createRoot(container);
  // A transition lets React render in small time slices, keeping the main thread responsive.
  startTransition(() => {
    root.render(
      <StrictMode>
        <Root />
      </StrictMode>,
    );
  });
}

import { timings } from '@appdesk/contract/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { AdminAppRoot } from '../components/AdminAppRoot';
import { AdminShell } from './AdminShell';
import { adminPath } from './adminPages';

/**
 * Admin layout (guarded by the entry dispatcher): antd, React Router and TanStack Query live here.
 * The shell renders the pages itself, one tab each (TabWorkspace), so only the redirects are routes.
 */
export default function AdminLayout() {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <AdminAppRoot notificationSeconds={timings.adminNotificationSeconds}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <Routes>
            <Route path="/admin" element={<Navigate to={adminPath('dashboard')} replace />} />
            <Route path="/admin/admin" element={<Navigate to={adminPath('dashboard')} replace />} />
            <Route path="/admin/*" element={<AdminShell />} />
          </Routes>
        </BrowserRouter>
      </QueryClientProvider>
    </AdminAppRoot>
  );
}

import { timings } from '@appdesk/contract/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { AdminAppRoot } from '../components/AdminAppRoot';
import { AdminNotFound, AdminShell } from './AdminShell';
import { adminPages, adminPath } from './adminPages';

/** Admin layout (guarded by the entry dispatcher): antd, React Router and TanStack Query live here. */
export default function AdminLayout() {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } }),
  );
  return (
    <AdminAppRoot notificationSeconds={timings.adminNotificationSeconds}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <Routes>
            <Route path="/admin" element={<AdminShell />}>
              <Route index element={<Navigate to={adminPath('dashboard')} replace />} />
              <Route path="admin" element={<Navigate to={adminPath('dashboard')} replace />} />
              {adminPages.map(({ key, Component }) => (
                <Route key={key} path={`admin/${key}`} element={<Component />} />
              ))}
              <Route path="*" element={<AdminNotFound />} />
            </Route>
          </Routes>
        </BrowserRouter>
      </QueryClientProvider>
    </AdminAppRoot>
  );
}

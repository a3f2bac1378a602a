import { App } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { bindNotification, notificationDefaults } from '../api/notify';
import { AntdRoot } from './AntdRoot';

/** Binds the context-aware notification API to the request client. */
function NotificationBridge() {
  const { notification } = App.useApp();
  useEffect(() => bindNotification(notification), [notification]);
  return null;
}

/** The admin console's antd root: App context with notifications closing after `notificationSeconds`. */
export function AdminAppRoot({ children, notificationSeconds }: { children: ReactNode; notificationSeconds: number }) {
  return (
    <AntdRoot>
      <App notification={{ ...notificationDefaults, duration: notificationSeconds }}>
        <NotificationBridge />
        {children}
      </App>
    </AntdRoot>
  );
}

import 'dayjs/locale/zh-cn';
// Zero-runtime antd: the prebuilt stylesheet replaces CSS-in-JS work on the main thread (Lighthouse TBT).
import 'antd/dist/antd.css';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';

dayjs.locale('zh-cn');

/** Primary colour dark enough for white text and links to pass WCAG AA contrast. */
export const primaryColor = '#0958d9';

const theme = { token: { colorPrimary: primaryColor, colorLink: primaryColor, borderRadius: 6 }, zeroRuntime: true };
const button = { autoInsertSpace: false };

/** antd root for the user and admin layouts: zh_CN locale, theme, no automatic space in 2-character buttons. */
export function AntdRoot({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} button={button} theme={theme}>
      {children}
    </ConfigProvider>
  );
}

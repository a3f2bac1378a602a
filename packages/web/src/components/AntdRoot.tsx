import 'dayjs/locale/zh-cn';
// Zero-runtime antd: the prebuilt stylesheet replaces CSS-in-JS work on the main thread (Lighthouse TBT).
// Its colours are CSS variables that ConfigProvider still writes from the theme, so the dark algorithm applies.
import 'antd/dist/antd.css';
import { theme as antdTheme, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import { type ReactNode, useLayoutEffect, useMemo, useSyncExternalStore } from 'react';
import { watchAriaWords } from './ariaWords';
import { currentScheme, markDocument, type Scheme, useScheme } from './theme';

dayjs.locale('zh-cn');
// Before the first paint of the layout, so a dark console never flashes white.
markDocument(currentScheme());

/** Primary colour dark enough for white text and links to pass WCAG AA contrast (light theme). */
export const primaryColor = '#0958d9';
/** Dark theme: antd's dark primary (white text on it passes AA) and a lighter link blue readable on #141414. */
const primaryColorDark = '#1668dc';
const linkColorDark = '#4096ff';

const themes: Record<Scheme, object> = {
  light: {
    token: {
      colorPrimary: primaryColor,
      colorLink: primaryColor,
      // antd's greys for secondary text (empty states, form hints, counters) and its red are below
      // WCAG AA contrast on white (3.4:1 and 3.9:1); these pass it (5.7:1 and 5.6:1).
      colorTextDescription: 'rgba(0, 0, 0, 0.6)',
      colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
      colorError: '#cf1322',
      borderRadius: 6,
    },
    zeroRuntime: true,
  },
  dark: {
    algorithm: antdTheme.darkAlgorithm,
    token: { colorPrimary: primaryColorDark, colorLink: linkColorDark, borderRadius: 6 },
    zeroRuntime: true,
  },
};
const button = { autoInsertSpace: false };

const reducedMotionQuery =
  typeof window !== 'undefined' ? window.matchMedia?.('(prefers-reduced-motion: reduce)') : undefined;

/** The system's "reduce motion" setting, followed while the page is open. */
function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (changed) => {
      reducedMotionQuery?.addEventListener?.('change', changed);
      return () => reducedMotionQuery?.removeEventListener?.('change', changed);
    },
    () => reducedMotionQuery?.matches ?? false,
    () => false,
  );
}

/** The theme of a scheme, without motion when the system asks for less. */
function themeFor(scheme: Scheme, reducedMotion: boolean) {
  const chosen = themes[scheme] as { token: object };
  return reducedMotion ? { ...chosen, token: { ...chosen.token, motion: false } } : chosen;
}

/**
 * The same theme and locale for what antd's static methods render outside any layout's root (the
 * notices of the sign-in and home pages): without it they had antd's default look, and with reduced
 * motion asked for, a closing notice waited for an animation that never ran and never went away.
 */
export function StaticHolderRoot({ children }: { children: ReactNode }) {
  const scheme = useScheme();
  const reducedMotion = useReducedMotion();
  const theme = useMemo(() => themeFor(scheme, reducedMotion), [scheme, reducedMotion]);
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      {children}
    </ConfigProvider>
  );
}

/**
 * antd root for the user and admin layouts: zh_CN locale, the light or dark theme (see theme.ts),
 * no automatic space in 2-character buttons, no opening/closing animations of drawers, modals
 * and menus when the system asks for reduced motion, and Chinese accessible names (ariaWords.ts).
 */
export function AntdRoot({ children }: { children: ReactNode }) {
  const scheme = useScheme();
  const reducedMotion = useReducedMotion();
  const theme = useMemo(() => themeFor(scheme, reducedMotion), [scheme, reducedMotion]);
  useLayoutEffect(() => {
    markDocument(scheme);
  }, [scheme]);
  // The public pages have no dark variant.
  useLayoutEffect(() => () => markDocument(null), []);
  // antd's icons, steppers and switches name themselves in English: Chinese for screen readers.
  useLayoutEffect(() => watchAriaWords(), []);
  return (
    <ConfigProvider locale={zhCN} button={button} theme={theme}>
      {children}
    </ConfigProvider>
  );
}

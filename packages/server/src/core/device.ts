import Bowser from 'bowser';

/** Browser names as Chinese operators know them; others keep the parser's (proper) name. */
const browserNames: Record<string, string> = {
  WeChat: '微信',
  'QQ Browser': 'QQ浏览器',
  'QQ Browser Lite': 'QQ浏览器',
  'UC Browser': 'UC浏览器',
  'Microsoft Edge': 'Edge',
  'Internet Explorer': 'IE',
  'Samsung Internet for Android': '三星浏览器',
  'Yandex Browser': 'Yandex',
  'Mobile Safari': 'Safari',
};

const major = (version: string | undefined) => version?.split('.')[0] ?? '';

/**
 * A user agent as people read it: "Chrome 120 · Windows 10", "微信 8 · iOS 17.1"; a client that
 * is no browser (an app's HTTP library) by its first product token, "okhttp 4.9.0"; null if empty.
 */
export function describeDevice(userAgent: string | null | undefined): string | null {
  const ua = userAgent?.trim();
  if (!ua) return null;
  const { browser, os, platform } = Bowser.parse(ua);
  if (browser.name) {
    const name = browserNames[browser.name] ?? browser.name;
    const browserText = [name, major(browser.version)].filter(Boolean).join(' ');
    const osVersion =
      os.name === 'Windows' ? os.versionName : os.versionName && os.name === 'macOS' ? os.versionName : os.version;
    const osText = [os.name, osVersion].filter(Boolean).join(' ');
    const model = platform.type === 'mobile' || platform.type === 'tablet' ? platform.model : undefined;
    return [browserText, osText, model && !osText.includes(model) ? model : undefined].filter(Boolean).join(' · ');
  }
  const token = /^([A-Za-z][\w.-]{0,40})(?:\/([\w.-]{1,20}))?/.exec(ua);
  return token ? [token[1], token[2]].filter(Boolean).join(' ') : ua.slice(0, 60);
}

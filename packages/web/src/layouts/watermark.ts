import { useSyncExternalStore } from 'react';

/**
 * The operator's name and phone tail drawn faintly over admin pages, so a screenshot of user data
 * says who took it. By default on the pages that show people and money; an operator may put it on
 * every page or turn it off (个人中心), remembered in this browser.
 */
export type WatermarkMode = 'sensitive' | 'all' | 'off';
const KEY = 'appdesk.watermark';
const CHANGE = 'appdesk:watermark';

/** Pages whose content is personal or financial data. */
export const sensitivePages = new Set(['users', 'coin', 'order', 'iaprecord', 'exchangerecord', 'audit', 'online']);

function read(): WatermarkMode {
  try {
    const stored = window.localStorage.getItem(KEY);
    return stored === 'all' || stored === 'off' ? stored : 'sensitive';
  } catch {
    return 'sensitive';
  }
}

export function setWatermarkMode(mode: WatermarkMode): void {
  try {
    window.localStorage.setItem(KEY, mode);
  } catch {
    // No storage: nothing to remember.
  }
  window.dispatchEvent(new Event(CHANGE));
}

export function useWatermarkMode(): WatermarkMode {
  return useSyncExternalStore((listener) => {
    window.addEventListener(CHANGE, listener);
    return () => window.removeEventListener(CHANGE, listener);
  }, read);
}

/** The text drawn: name and the last four digits of the phone. */
export const watermarkText = (name: string, phone: string) => `${name} ${phone.slice(-4)}`;

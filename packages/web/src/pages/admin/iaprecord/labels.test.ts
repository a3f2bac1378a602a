import { describe, expect, it } from 'vitest';
import { environmentLabel, notificationLabel, notificationTypeLabel, verificationNotice } from './labels';

/** Words an operator reads on 内购记录: no server setting names, no raw enum values. */
const raw = /[A-Z]{2,}_[A-Z]{2,}|\b(Production|Sandbox|acknowledge)\b/;

describe('内购记录 wording', () => {
  it('the verification notice names no environment variable or raw value, configured or not', () => {
    for (const apple of [true, false]) {
      for (const google of [true, false]) {
        const text = verificationNotice({ apple, google, appleEnvironments: ['Production', 'Sandbox'] });
        expect(text).not.toMatch(raw);
      }
    }
    expect(verificationNotice({ apple: false, google: false, appleEnvironments: [] })).toContain(
      'App Store 校验未配置',
    );
  });

  it('environments and notification types read in words', () => {
    expect(['Production', 'Sandbox', 'Test'].map(environmentLabel)).toEqual(['正式环境', '沙盒环境', '测试购买']);
    expect(notificationTypeLabel('ONE_TIME_CHARGE')).toBe('一次性购买');
    expect(notificationTypeLabel('DID_RENEW')).not.toMatch(raw);
    expect(notificationLabel('SUBSCRIBED', 'INITIAL_BUY')).toBe('订阅（首次购买）');
  });
});

import { describe, expect, it } from 'vitest';
import { type AppView, appChanges, blankApp, toAppInput, toAppValues } from './appForm';

const state = { set: false, setAt: null, source: 'none' as const };
const tailor: AppView = {
  id: 1,
  code: 'tailor',
  name: '滚动截屏',
  icon: '',
  description: '',
  enabled: true,
  isDefault: true,
  androidPackage: 'com.appdesk.tailor',
  iosBundleId: 'com.appdesk.tailor',
  appleAppId: '',
  channels: [
    { channel: 'huawei', storeLink: '' },
    { channel: 'oppo', storeLink: 'https://example.com/oppo' },
  ],
  icpFiling: '',
  appleEnvironments: ['Production'],
  alipayAppId: '',
  alipayPublicKey: '',
  wechatMchId: '',
  wechatAppId: '',
  wechatPlatformPublicKey: '',
  wechatPlatformSerial: '',
  secrets: { googleServiceAccount: state, wechatApiV3Key: state },
  fromEnvironment: { apple: false, google: false, alipay: false, wechat: false },
  createdAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
};

describe('应用管理 form', () => {
  it("registers an app with its shipped channels in the channels' order, each with its trimmed link", () => {
    const input = toAppInput({
      ...blankApp,
      code: ' quote ',
      name: ' 名言 ',
      shipped: ['xiaomi', 'oppo'],
      storeLinks: { oppo: ' https://example.com/q ', huawei: 'https://not-shipped' },
    });
    expect(input.code).toBe('quote');
    expect(input.name).toBe('名言');
    expect(input.channels).toEqual([
      { channel: 'oppo', storeLink: 'https://example.com/q' },
      { channel: 'xiaomi', storeLink: '' },
    ]);
  });

  it('an edit sends only what changed, never the code', () => {
    expect(appChanges(toAppValues(tailor), tailor)).toEqual({});
    const values = { ...toAppValues(tailor), code: 'other', name: '滚动截屏 Pro', shipped: ['oppo', 'huawei'] };
    expect(appChanges(values, tailor)).toEqual({ name: '滚动截屏 Pro' });
    const unshipped = { ...toAppValues(tailor), shipped: ['oppo'] };
    expect(appChanges(unshipped, tailor)).toEqual({
      channels: [{ channel: 'oppo', storeLink: 'https://example.com/oppo' }],
    });
  });
});

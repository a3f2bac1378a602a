import { describe, expect, it } from 'vitest';
import { describeDevice } from './device';

describe('describeDevice', () => {
  it('names browser and system as people read them', () => {
    expect(
      describeDevice(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 120 · Windows 10');
    expect(
      describeDevice(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.44(0x18002c2f) NetType/WIFI Language/zh_CN',
      ),
    ).toBe('微信 8 · iOS 17.1 · iPhone');
    expect(
      describeDevice(
        'Mozilla/5.0 (Linux; Android 13; 22081212C Build/TKQ1.220829.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36',
      ),
    ).toBe('Chrome 116 · Android 13');
  });

  it('names a client that is no browser by its product, and nothing as null', () => {
    expect(describeDevice('okhttp/4.9.0')).toBe('okhttp 4.9.0');
    expect(describeDevice('curl/8.1')).toBe('curl 8.1');
    expect(describeDevice('')).toBeNull();
    expect(describeDevice(null)).toBeNull();
  });
});

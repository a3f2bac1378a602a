/** The rollout hash is a published algorithm (apps may compute the same buckets): it must never change. */
import { describe, expect, it } from 'vitest';
import { hash32, inRollout, rolloutBucket } from '../src/rollout';

describe('hash32', () => {
  it('gives the values it always gave, for ASCII, CJK, emoji and long texts', () => {
    expect(hash32('')).toBe(2872998923);
    expect(hash32('a')).toBe(444641715);
    expect(hash32('version:tailor:android:200\u0000android-1-7919')).toBe(4023697548);
    expect(hash32('config:feature.x\u0000设备-董艳-😀')).toBe(889496581);
    expect(hash32('x'.repeat(1000))).toBe(1841099346);
    expect(hash32('\u{10FFFF}é')).toBe(466864524);
    // A short text after a long one is hashed alone (the reused buffer holds the long one's bytes).
    expect(hash32('a')).toBe(444641715);
  });

  it('puts a device in a stable bucket; a share only grows with its percentage', () => {
    const devices = Array.from({ length: 2000 }, (_, i) => `device-${i}`);
    const at = (percent: number) => devices.filter((d) => inRollout(d, 'salt', percent));
    expect(at(10).every((d) => at(50).includes(d))).toBe(true);
    expect(at(100)).toHaveLength(2000);
    expect(rolloutBucket('device-1', 'salt')).toBe(rolloutBucket('device-1', 'salt'));
  });
});

/**
 * The shares as the server hands them out, over 10,000 devices each: a release's update offer
 * (salt `version:<app>:<platform>:<code>`, latest.ts) and a remote-config override (salt
 * `config:<key>`, a11t/resolve.ts). The server's tests check a few devices through the API against
 * this function; the distribution itself is checked here, where it is computed.
 */
describe('shares over many devices', () => {
  const releaseDevices = Array.from({ length: 10_000 }, (_, i) => `android-${i}-${(i * 7919) % 10007}`);
  const configDevices = Array.from({ length: 10_000 }, (_, i) => `dev-${i}`);
  const share = (devices: string[], salt: string, percent: number) =>
    devices.filter((d) => inRollout(d, salt, percent));

  it('gives a release to about its percentage of devices, and raising it keeps every device that had it', () => {
    const salt = 'version:tailor:android:300';
    const atTen = share(releaseDevices, salt, 10);
    const atFifty = new Set(share(releaseDevices, salt, 50));
    expect(atTen.length).toBeGreaterThan(850);
    expect(atTen.length).toBeLessThan(1150);
    expect(atFifty.size).toBeGreaterThan(4700);
    expect(atFifty.size).toBeLessThan(5300);
    expect(atTen.filter((d) => !atFifty.has(d))).toEqual([]);
  });

  it('gives a config override to about its percentage of devices, and raising it keeps every device that had it', () => {
    const salt = 'config:feature.new_stitch';
    const atTwenty = share(configDevices, salt, 20);
    const atForty = new Set(share(configDevices, salt, 40));
    expect(atTwenty.length).toBeGreaterThan(1800);
    expect(atTwenty.length).toBeLessThan(2200);
    expect(atForty.size).toBeGreaterThan(3700);
    expect(atForty.size).toBeLessThan(4300);
    expect(atTwenty.filter((d) => !atForty.has(d))).toEqual([]);
  });

  it('picks other devices for another salt: two releases at 10 % share about 1 % of devices', () => {
    const one = new Set(share(releaseDevices, 'version:tailor:android:300', 10));
    const both = share(releaseDevices, 'version:tailor:android:400', 10).filter((d) => one.has(d));
    expect(both.length).toBeGreaterThan(50);
    expect(both.length).toBeLessThan(150);
  });

  it('spreads buckets evenly: each tenth of the range holds about a tenth of the devices', () => {
    const tenths = Array.from({ length: 10 }, () => 0);
    for (const d of releaseDevices) tenths[Math.floor(rolloutBucket(d, 'version:tailor:android:300') / 1000)] += 1;
    for (const count of tenths) {
      expect(count).toBeGreaterThan(850);
      expect(count).toBeLessThan(1150);
    }
  });
});

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

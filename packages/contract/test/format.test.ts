import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  datePresetNames,
  datePresets,
  fenInWords,
  fenToYuan,
  formatDate,
  formatDateTime,
  formatDuration,
  formatExactTime,
  isMobileWidth,
  presetRange,
  relativeTime,
  toChineseCurrency,
  yuanTextToFen,
} from '../src/format';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('relativeTime', () => {
  // 2025-06-15 12:00 in Shanghai.
  const now = Date.parse('2025-06-15T04:00:00Z');
  const ago = (ms: number) => relativeTime(now - ms, now);

  it('says 刚刚 under one minute', () => {
    expect(ago(0)).toBe('刚刚');
    expect(ago(59 * SECOND)).toBe('刚刚');
    expect(ago(MINUTE - 1)).toBe('刚刚');
  });

  it('counts whole minutes from 60 s to under an hour', () => {
    expect(ago(60 * SECOND)).toBe('1 分钟前');
    expect(ago(119 * SECOND)).toBe('1 分钟前');
    expect(ago(59 * MINUTE)).toBe('59 分钟前');
    expect(ago(HOUR - 1)).toBe('59 分钟前');
  });

  it('counts whole hours from 60 min to under a day', () => {
    expect(ago(60 * MINUTE)).toBe('1 小时前');
    expect(ago(23 * HOUR)).toBe('23 小时前');
    expect(ago(DAY - 1)).toBe('23 小时前');
  });

  it('counts whole days from 24 h to under 10 days', () => {
    expect(ago(24 * HOUR)).toBe('1 天前');
    expect(ago(9 * DAY + 23 * HOUR)).toBe('9 天前');
    expect(ago(10 * DAY - 1)).toBe('9 天前');
  });

  it('shows the Shanghai date from 10 days on', () => {
    expect(ago(10 * DAY)).toBe('2025.06.05');
    // 2024-12-31 16:30 UTC is already 2025-01-01 in Shanghai.
    expect(relativeTime('2024-12-31T16:30:00Z', now)).toBe('2025.01.01');
    expect(relativeTime('2024-12-31T15:59:59Z', now)).toBe('2024.12.31');
  });

  it('treats future times (clock skew) as 刚刚', () => {
    expect(ago(-5 * SECOND)).toBe('刚刚');
    expect(ago(-3 * DAY)).toBe('刚刚');
  });

  it('accepts epoch ms, ISO strings and Date objects alike', () => {
    const t = now - 5 * MINUTE;
    expect(relativeTime(t, now)).toBe('5 分钟前');
    expect(relativeTime(new Date(t).toISOString(), now)).toBe('5 分钟前');
    expect(relativeTime(new Date(t), now)).toBe('5 分钟前');
  });

  it('shows - for a missing or unreadable time', () => {
    expect(relativeTime('not a date', now)).toBe('-');
    expect(relativeTime(null, now)).toBe('-');
    expect(relativeTime(undefined, now)).toBe('-');
  });

  it('defaults now to the current time', () => {
    vi.useFakeTimers();
    vi.setSystemTime(now);
    try {
      expect(relativeTime(now - 3 * HOUR)).toBe('3 小时前');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('formatDate / formatDateTime', () => {
  it('shows Asia/Shanghai wall time (UTC+8)', () => {
    expect(formatDate('2025-01-05T15:59:00Z')).toBe('2025-01-05');
    expect(formatDate('2025-01-05T16:00:00Z')).toBe('2025-01-06');
    expect(formatDateTime('2025-01-05T15:59:00Z')).toBe('2025.01.05 23:59');
    expect(formatDateTime('2025-01-05T16:00:00Z')).toBe('2025.01.06 00:00');
  });

  it('crosses the year in Shanghai before it does in UTC', () => {
    const t = Date.parse('2024-12-31T17:05:09Z');
    expect(formatDate(t)).toBe('2025-01-01');
    expect(formatDateTime(t)).toBe('2025.01.01 01:05');
    expect(formatDateTime(new Date(t))).toBe('2025.01.01 01:05');
    expect(formatExactTime(t)).toBe('2025-01-01 01:05:09');
  });

  it('gives the exact time to the second, padded, or "-" without a time', () => {
    expect(formatExactTime('2025-03-04T01:02:03.999Z')).toBe('2025-03-04 09:02:03');
    expect(formatExactTime(null)).toBe('-');
    expect(formatExactTime('not a time')).toBe('-');
  });

  it('pads month, day, hour and minute', () => {
    expect(formatDateTime(Date.parse('2025-03-04T01:02:59Z'))).toBe('2025.03.04 09:02');
    expect(formatDate(Date.parse('2025-03-04T01:02:59Z'))).toBe('2025-03-04');
  });

  it('reads strings with an explicit offset correctly', () => {
    expect(formatDateTime('2025-07-01T08:30:00+08:00')).toBe('2025.07.01 08:30');
  });

  it('shows - for null, undefined, empty or invalid input', () => {
    for (const f of [formatDate, formatDateTime]) {
      expect(f(null)).toBe('-');
      expect(f(undefined)).toBe('-');
      expect(f('')).toBe('-');
      expect(f('garbage')).toBe('-');
      expect(f(Number.NaN)).toBe('-');
    }
  });

  it('formats epoch 0 rather than treating it as missing', () => {
    expect(formatDateTime(0)).toBe('1970.01.01 08:00');
  });
});

describe('toChineseCurrency', () => {
  it.each([
    [0, '零元整'],
    [1, '壹元整'],
    [10, '壹拾元整'],
    [10.5, '壹拾元伍角'],
    [1001.01, '壹仟零壹元零壹分'],
    [100000, '壹拾万元整'],
    [123456789.12, '壹亿贰仟叁佰肆拾伍万陆仟柒佰捌拾玖元壹角贰分'],
    [0.05, '伍分'],
    [0.1, '壹角'],
    [0.15, '壹角伍分'],
    [20.0, '贰拾元整'],
    [110, '壹佰壹拾元整'],
    [1010.1, '壹仟零壹拾元壹角'],
    [11000, '壹万壹仟元整'],
    [10100, '壹万零壹佰元整'],
    [100100, '壹拾万零壹佰元整'],
    [1000000.1, '壹佰万元壹角'],
    [10100000, '壹仟零壹拾万元整'],
    [100000000, '壹亿元整'],
    [100000001, '壹亿零壹元整'],
    [100010001, '壹亿零壹万零壹元整'],
    [1000000000000, '壹万亿元整'],
    [40000.04, '肆万元零肆分'],
  ])('%s → %s', (amount, words) => {
    expect(toChineseCurrency(amount)).toBe(words);
  });

  it('prefixes negative amounts with 负', () => {
    expect(toChineseCurrency(-3.2)).toBe('负叁元贰角');
    expect(toChineseCurrency(-0.05)).toBe('负伍分');
  });

  it('rounds to the fen, half away from zero, without float noise', () => {
    // 1.005 * 100 is 100.49999999999999 in binary floating point.
    expect(toChineseCurrency(1.005)).toBe('壹元零壹分');
    expect(toChineseCurrency(0.285)).toBe('贰角玖分');
    expect(toChineseCurrency(-1.005)).toBe('负壹元零壹分');
    expect(toChineseCurrency(0.004)).toBe('零元整');
    expect(toChineseCurrency(9.999)).toBe('壹拾元整');
  });

  it('never says 负零元整', () => {
    expect(toChineseCurrency(-0.001)).toBe('零元整');
    expect(toChineseCurrency(-0)).toBe('零元整');
  });

  it('handles the largest exact amount and refuses beyond it', () => {
    // 9 007 199 254 740 950 fen, just under Number.MAX_SAFE_INTEGER (.5 is exact in binary).
    expect(toChineseCurrency(90071992547409.5)).toBe('玖拾万亿零柒佰壹拾玖亿玖仟贰佰伍拾肆万柒仟肆佰零玖元伍角');
    expect(toChineseCurrency(1e14)).toBe('');
  });

  it('returns an empty string for NaN and infinities', () => {
    expect(toChineseCurrency(Number.NaN)).toBe('');
    expect(toChineseCurrency(Number.POSITIVE_INFINITY)).toBe('');
    expect(toChineseCurrency(Number.NEGATIVE_INFINITY)).toBe('');
  });
});

describe('fenToYuan', () => {
  it.each([
    [1234, '12.34'],
    [0, '0.00'],
    [5, '0.05'],
    [50, '0.50'],
    [100, '1.00'],
    [123456789, '1234567.89'],
    [-5, '-0.05'],
    [-1234, '-12.34'],
  ])('%s fen → %s', (fen, yuan) => {
    expect(fenToYuan(fen)).toBe(yuan);
  });

  it('rounds a stray fraction of a fen and never shows -0.00', () => {
    expect(fenToYuan(12.6)).toBe('0.13');
    expect(fenToYuan(-0.4)).toBe('0.00');
  });

  it('shows - for a missing amount', () => {
    expect(fenToYuan(null)).toBe('-');
    expect(fenToYuan(undefined)).toBe('-');
    expect(fenToYuan(Number.NaN)).toBe('-');
  });
});

describe('isMobileWidth', () => {
  it('is true under 900 px only', () => {
    expect(isMobileWidth(375)).toBe(true);
    expect(isMobileWidth(899)).toBe(true);
    expect(isMobileWidth(899.5)).toBe(true);
    expect(isMobileWidth(900)).toBe(false);
    expect(isMobileWidth(1920)).toBe(false);
  });
});

// The presets must come out the same whatever zone the machine is in. Node re-reads
// process.env.TZ when it is assigned, so each block below really runs in that zone. Los Angeles
// changes to daylight saving on 2025-03-09, the Sunday used below; Kiritimati is UTC+14, so its
// calendar day differs from Shanghai's too.
const zones = [
  { tz: 'Asia/Shanghai', offsetOn20250101: -480 },
  { tz: 'UTC', offsetOn20250101: 0 },
  { tz: 'America/Los_Angeles', offsetOn20250101: 480 },
  { tz: 'Pacific/Kiritimati', offsetOn20250101: -840 },
];

describe.each(zones)('datePresets / presetRange with the machine in $tz', ({ tz, offsetOn20250101 }) => {
  const savedTz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = tz;
  });
  afterAll(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const show = (d: { format(f: string): string }) => d.format('YYYY-MM-DD HH:mm:ss.SSS Z');

  it('really runs in that zone', () => {
    expect(new Date(Date.parse('2025-01-01T00:00:00Z')).getTimezoneOffset()).toBe(offsetOn20250101);
  });

  it('starts the week on Monday when today is Sunday', () => {
    // Sunday 2025-03-09 18:00 Shanghai.
    const sunday = Date.parse('2025-03-09T10:00:00Z');
    const p = datePresets(sunday);
    expect(show(p.本周[0])).toBe('2025-03-03 00:00:00.000 +08:00');
    expect(show(p.本周[1])).toBe('2025-03-09 23:59:59.999 +08:00');
    expect(show(p.今天[0])).toBe('2025-03-09 00:00:00.000 +08:00');
    expect(show(p.今天[1])).toBe('2025-03-09 23:59:59.999 +08:00');
    expect(p.本周[0].valueOf()).toBe(Date.parse('2025-03-02T16:00:00Z'));
    expect(p.本周[1].valueOf()).toBe(Date.parse('2025-03-09T15:59:59.999Z'));
    expect(presetRange('本周', sunday)).toEqual({
      from: '2025-03-02T16:00:00.000Z',
      to: '2025-03-09T15:59:59.999Z',
    });
  });

  it('uses the Shanghai day: just after midnight on Sunday is still Saturday in UTC', () => {
    // Sunday 2025-03-09 00:30 Shanghai = Saturday 16:30 UTC.
    const t = Date.parse('2025-03-08T16:30:00Z');
    const p = datePresets(t);
    expect(show(p.今天[0])).toBe('2025-03-09 00:00:00.000 +08:00');
    expect(show(p.本周[0])).toBe('2025-03-03 00:00:00.000 +08:00');
    expect(show(p.本周[1])).toBe('2025-03-09 23:59:59.999 +08:00');
  });

  it('starts a new week on Monday', () => {
    // Monday 2025-03-10 00:00 Shanghai exactly (still Sunday in UTC), and 23:59:59 the same day.
    for (const monday of [Date.parse('2025-03-09T16:00:00Z'), Date.parse('2025-03-10T15:59:59Z')]) {
      const p = datePresets(monday);
      expect(show(p.本周[0])).toBe('2025-03-10 00:00:00.000 +08:00');
      expect(show(p.本周[1])).toBe('2025-03-16 23:59:59.999 +08:00');
      expect(show(p.今天[0])).toBe('2025-03-10 00:00:00.000 +08:00');
      expect(presetRange('本周', monday)).toEqual({
        from: '2025-03-09T16:00:00.000Z',
        to: '2025-03-16T15:59:59.999Z',
      });
      expect(presetRange('今天', monday)).toEqual({
        from: '2025-03-09T16:00:00.000Z',
        to: '2025-03-10T15:59:59.999Z',
      });
    }
  });

  it('covers the whole month and year', () => {
    const sunday = Date.parse('2025-03-09T10:00:00Z');
    const p = datePresets(sunday);
    expect(show(p.本月[0])).toBe('2025-03-01 00:00:00.000 +08:00');
    expect(show(p.本月[1])).toBe('2025-03-31 23:59:59.999 +08:00');
    expect(show(p.今年[0])).toBe('2025-01-01 00:00:00.000 +08:00');
    expect(show(p.今年[1])).toBe('2025-12-31 23:59:59.999 +08:00');
    expect(presetRange('本月', sunday)).toEqual({
      from: '2025-02-28T16:00:00.000Z',
      to: '2025-03-31T15:59:59.999Z',
    });
    expect(presetRange('今年', sunday)).toEqual({
      from: '2024-12-31T16:00:00.000Z',
      to: '2025-12-31T15:59:59.999Z',
    });
  });

  it('ends February on the 29th in a leap year', () => {
    const p = datePresets(Date.parse('2024-02-10T04:00:00Z'));
    expect(show(p.本月[1])).toBe('2024-02-29 23:59:59.999 +08:00');
  });

  it('rolls over the year at Shanghai midnight, with a week spanning both years', () => {
    // 2025-01-01 00:00 Shanghai (a Wednesday) is still 2024 in UTC.
    const t = Date.parse('2024-12-31T16:00:00Z');
    const p = datePresets(t);
    expect(show(p.今年[0])).toBe('2025-01-01 00:00:00.000 +08:00');
    expect(show(p.本月[0])).toBe('2025-01-01 00:00:00.000 +08:00');
    expect(show(p.本周[0])).toBe('2024-12-30 00:00:00.000 +08:00');
    expect(show(p.本周[1])).toBe('2025-01-05 23:59:59.999 +08:00');
  });

  it('gives Dayjs pairs whose instants match presetRange for every preset', () => {
    const t = Date.parse('2025-11-02T09:30:00Z'); // the day US clocks fall back
    const p = datePresets(t);
    expect(Object.keys(p)).toEqual([...datePresetNames]);
    for (const name of datePresetNames) {
      const { from, to } = presetRange(name, t);
      expect(p[name][0].toISOString()).toBe(from);
      expect(p[name][1].toISOString()).toBe(to);
      expect(p[name][0].isBefore(p[name][1])).toBe(true);
    }
  });

  it('defaults now to the current time', () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse('2025-03-09T10:00:00Z'));
    expect(show(datePresets().本周[0])).toBe('2025-03-03 00:00:00.000 +08:00');
    expect(presetRange('今天').from).toBe('2025-03-08T16:00:00.000Z');
  });
});

describe('yuanTextToFen and fenInWords', () => {
  it('reads typed yuan as whole fen, refusing what is not money', () => {
    expect(yuanTextToFen('98')).toBe(9800);
    expect(yuanTextToFen('98.5')).toBe(9850);
    expect(yuanTextToFen(' 0.07 ')).toBe(7);
    expect(yuanTextToFen('1000000')).toBe(100_000_000);
    for (const bad of ['', '-1', '1.005', '1e3', '1 000', '1000001', '.5', 'abc']) {
      expect(yuanTextToFen(bad), bad).toBeNull();
    }
  });

  it('writes integer fen in upper-case Chinese money', () => {
    expect(fenInWords(9800)).toBe('玖拾捌元整');
    expect(fenInWords(100101)).toBe('壹仟零壹元零壹分');
    expect(fenInWords(-5)).toBe('负伍分');
    expect(fenInWords(0.5)).toBe('');
  });
});

describe('formatDuration', () => {
  it('shows a short sound in tenths of a second, never 0:00', () => {
    expect(formatDuration(300)).toBe('0.3 秒');
    expect(formatDuration(40)).toBe('不足 0.1 秒');
    expect(formatDuration(0)).toBe('0 秒');
    expect(formatDuration(12_450)).toBe('12.4 秒');
    expect(formatDuration(59_999)).toBe('59.9 秒');
  });
  it('shows a minute on as m:ss and an hour on as h:mm:ss', () => {
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
    expect(formatDuration(null)).toBe('-');
  });
});

/**
 * Shared display formatters (docs/spec-notes.md#9-presentation-and-timings). The public home page may import this file, so it
 * stays free of zod and of anything heavier than dayjs with its utc plugin.
 *
 * Times are stored as UTC and shown in Asia/Shanghai (docs/architecture.md#data-model). Shanghai has had no daylight
 * saving since 1991, so "Shanghai wall clock" is simply UTC + 8 h: shifting by 8 h and reading the
 * UTC fields gives the same answer whatever time zone the machine running this code is set to.
 */
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { MOBILE_MAX_WIDTH } from '../constants';

dayjs.extend(utc);

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SHANGHAI_OFFSET_MINUTES = 8 * 60;
const SHANGHAI_OFFSET_MS = SHANGHAI_OFFSET_MINUTES * MINUTE;

/** Anything the API or a form may hand us as a point in time. */
export type TimeInput = number | string | Date;

/** Shown instead of a time or amount that is missing or unreadable. */
const EMPTY = '-';

function toMs(time: TimeInput | null | undefined): number {
  if (time === null || time === undefined || time === '') return Number.NaN;
  return time instanceof Date ? time.getTime() : new Date(time).getTime();
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A Date whose UTC fields read as the Shanghai wall clock at `ms`. */
const shanghaiWall = (ms: number) => new Date(ms + SHANGHAI_OFFSET_MS);

function dotDate(ms: number): string {
  const w = shanghaiWall(ms);
  return `${w.getUTCFullYear()}.${pad(w.getUTCMonth() + 1)}.${pad(w.getUTCDate())}`;
}

/**
 * '刚刚' / 'N 分钟前' / 'N 小时前' / 'N 天前', then 'YYYY.MM.DD' from 10 days on.
 * A time in the future (client clock behind the server's) also reads '刚刚' rather than a
 * negative count.
 */
export function relativeTime(time: TimeInput | null | undefined, now: number = Date.now()): string {
  const ms = toMs(time);
  if (Number.isNaN(ms)) return EMPTY;
  const diff = now - ms;
  if (diff < MINUTE) return '刚刚';
  if (diff < HOUR) return `${Math.floor(diff / MINUTE)} 分钟前`;
  if (diff < DAY) return `${Math.floor(diff / HOUR)} 小时前`;
  if (diff < 10 * DAY) return `${Math.floor(diff / DAY)} 天前`;
  return dotDate(ms);
}

/** 'YYYY-MM-DD' in Asia/Shanghai; '-' when there is no (valid) time. */
export function formatDate(time: TimeInput | null | undefined): string {
  const ms = toMs(time);
  if (Number.isNaN(ms)) return EMPTY;
  const w = shanghaiWall(ms);
  return `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}`;
}

/**
 * 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai, to the second: what an operator reconciles a ledger or
 * a payment statement by. '-' when there is no (valid) time.
 */
export function formatExactTime(time: TimeInput | null | undefined): string {
  const ms = toMs(time);
  if (Number.isNaN(ms)) return EMPTY;
  const w = shanghaiWall(ms);
  return `${formatDate(ms)} ${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}:${pad(w.getUTCSeconds())}`;
}

/** 'YYYY.MM.DD HH:mm' in Asia/Shanghai; '-' when there is no (valid) time. */
export function formatDateTime(time: TimeInput | null | undefined): string {
  const ms = toMs(time);
  if (Number.isNaN(ms)) return EMPTY;
  const w = shanghaiWall(ms);
  return `${dotDate(ms)} ${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`;
}

/**
 * A sound's length: under a minute in seconds to a tenth ('0.3 秒', '12.5 秒'; a sliver under
 * 0.1 s reads '不足 0.1 秒' rather than zero), from a minute on as m:ss ('1:05'), from an hour as h:mm:ss.
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return EMPTY;
  if (ms === 0) return '0 秒';
  if (ms < 100) return '不足 0.1 秒';
  if (ms < MINUTE) return `${(Math.floor(ms / 100) / 10).toFixed(1)} 秒`;
  const seconds = Math.round(ms / SECOND);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const clock = `${pad(m, h > 0 ? 2 : 1)}:${pad(seconds % 60)}`;
  return h > 0 ? `${h}:${clock}` : clock;
}

// ---------------------------------------------------------------------------------------------
// Date range presets

export const datePresetNames = ['今天', '本周', '本月', '今年'] as const;
export type DatePresetName = (typeof datePresetNames)[number];
export type DatePresets = Record<DatePresetName, [Dayjs, Dayjs]>;

/**
 * Shanghai-calendar boundaries of each preset, as epoch ms [first ms, last ms].
 * The calendar arithmetic runs on a UTC-mode dayjs holding the Shanghai wall clock: UTC has no
 * DST, so day/month/year starts never drift by an hour, and the locale (whose first weekday may
 * be Sunday) is never consulted.
 */
function presetBounds(now: number): Record<DatePresetName, [number, number]> {
  const wall = dayjs.utc(now + SHANGHAI_OFFSET_MS);
  const today = wall.startOf('day');
  // day(): 0 = Sunday … 6 = Saturday. Weeks start on Monday, so Sunday is 6 days into its week.
  const monday = today.subtract((today.day() + 6) % 7, 'day');
  const ranges: Record<DatePresetName, [Dayjs, Dayjs]> = {
    今天: [today, today.endOf('day')],
    本周: [monday, monday.add(6, 'day').endOf('day')],
    本月: [wall.startOf('month'), wall.endOf('month')],
    今年: [wall.startOf('year'), wall.endOf('year')],
  };
  const toInstant = (d: Dayjs) => d.valueOf() - SHANGHAI_OFFSET_MS;
  return {
    今天: [toInstant(ranges.今天[0]), toInstant(ranges.今天[1])],
    本周: [toInstant(ranges.本周[0]), toInstant(ranges.本周[1])],
    本月: [toInstant(ranges.本月[0]), toInstant(ranges.本月[1])],
    今年: [toInstant(ranges.今年[0]), toInstant(ranges.今年[1])],
  };
}

/**
 * The instant `ms` as a dayjs fixed at UTC+8, so pickers show Shanghai dates on any machine.
 * It is built from a local Date carrying the Shanghai wall-clock fields, then tagged +08:00 with
 * keepLocalTime: dayjs then derives valueOf from that Date's own local offset, which stays right
 * across the machine's DST changes (the shifting `utcOffset(480)` form caches one offset and
 * goes an hour wrong across them). Known limit: in the few zones that spring forward at
 * midnight (Cuba, Chile, …) 00:00 does not exist locally on that one day, and that one Dayjs
 * comes out at 01:00; presetRange is exact everywhere.
 */
function shanghaiDayjs(ms: number): Dayjs {
  const w = shanghaiWall(ms);
  const local = new Date(
    w.getUTCFullYear(),
    w.getUTCMonth(),
    w.getUTCDate(),
    w.getUTCHours(),
    w.getUTCMinutes(),
    w.getUTCSeconds(),
    w.getUTCMilliseconds(),
  );
  return dayjs(local).utcOffset(SHANGHAI_OFFSET_MINUTES, true);
}

/**
 * Range presets for antd RangePicker: each from the first to the last millisecond of the
 * Shanghai day / Monday-started week / month / year that contains `now`.
 */
export function datePresets(now: number = Date.now()): DatePresets {
  const bounds = presetBounds(now);
  const pair = (name: DatePresetName): [Dayjs, Dayjs] => [
    shanghaiDayjs(bounds[name][0]),
    shanghaiDayjs(bounds[name][1]),
  ];
  return { 今天: pair('今天'), 本周: pair('本周'), 本月: pair('本月'), 今年: pair('今年') };
}

/** One preset as ISO-8601 UTC strings for API filters (both ends inclusive). */
export function presetRange(name: DatePresetName, now: number = Date.now()): { from: string; to: string } {
  // Computed from plain instants, not from the Dayjs objects, so it is exact on every machine.
  const [from, to] = presetBounds(now)[name];
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

// ---------------------------------------------------------------------------------------------
// Money (stored as integer fen, docs/architecture.md#data-model)

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const PLACES = ['', '拾', '佰', '仟'];
// 10^0, 10^4, 10^8, 10^12 yuan: enough for every safe-integer number of fen (< 9.1 × 10^13 yuan).
const GROUPS = ['', '万', '亿', '万亿'];

/**
 * Whole-yuan number in 大写. Zeros inside a group, and whole zero groups between non-zero ones,
 * collapse to a single 零; trailing zeros are dropped (100100 → 壹拾万零壹佰).
 */
function yuanInWords(yuan: number): string {
  // Work on the decimal digits, padded to whole 4-digit groups: no float division involved.
  const digits = String(yuan).padStart(GROUPS.length * 4, '0');
  let out = '';
  let pendingZero = false;
  let started = false;
  for (let g = GROUPS.length - 1; g >= 0; g--) {
    const start = (GROUPS.length - 1 - g) * 4;
    const group = digits.slice(start, start + 4);
    if (group === '0000') {
      if (started) pendingZero = true;
      continue;
    }
    for (let i = 0; i < 4; i++) {
      const digit = Number(group[i]);
      if (digit === 0) {
        // A zero only matters once something bigger was written (1 0001 → 壹万零壹).
        if (started) pendingZero = true;
        continue;
      }
      if (pendingZero) out += '零';
      out += DIGITS[digit] + PLACES[3 - i];
      pendingZero = false;
      started = true;
    }
    out += GROUPS[g];
    pendingZero = false; // zeros at the end of a group are implied by its unit
  }
  return out;
}

/**
 * Integer fen for a yuan amount, half away from zero. `amount * 100` carries binary noise
 * (1.005 * 100 = 100.49999999999999), so it is trimmed to 6 decimals before rounding: money is
 * entered with at most 2–3 decimals, never with a real 0.499999… fen.
 */
function yuanToFen(amount: number): number {
  return Math.round(Number((Math.abs(amount) * 100).toFixed(6)));
}

/**
 * Upper-case Chinese money (大写金额) with 角 and 分, e.g. 1001.01 → '壹仟零壹元零壹分',
 * 10.5 → '壹拾元伍角', 0 → '零元整'. Negative amounts get a '负' prefix. Returns '' for NaN,
 * ±Infinity or amounts too large to count in whole fen exactly.
 */
export function toChineseCurrency(amount: number): string {
  if (!Number.isFinite(amount)) return '';
  const fen = yuanToFen(amount);
  if (!Number.isSafeInteger(fen)) return '';
  if (fen === 0) return '零元整'; // also for -0.001, which must not read '负零元整'

  const yuan = Math.floor(fen / 100);
  const jiao = Math.floor(fen / 10) % 10;
  const fenDigit = fen % 10;

  let out = yuan > 0 ? `${yuanInWords(yuan)}元` : '';
  if (jiao > 0) out += `${DIGITS[jiao]}角`;
  // 零 marks the skipped 角 only when something precedes it (1001.01 → …元零壹分, 0.05 → 伍分).
  else if (fenDigit > 0 && yuan > 0) out += '零';
  if (fenDigit > 0) out += `${DIGITS[fenDigit]}分`;
  // 整 only after 元: an amount ending in 角 needs no 整 (10.5 → 壹拾元伍角).
  if (jiao === 0 && fenDigit === 0) out += '整';
  return (amount < 0 ? '负' : '') + out;
}

/** Integer fen as a yuan string with two decimals: 1234 → '12.34', -5 → '-0.05'; '-' if missing. */
export function fenToYuan(fen: number | null | undefined): string {
  if (fen === null || fen === undefined || !Number.isFinite(fen)) return EMPTY;
  // Integer arithmetic, not fen / 100 with toFixed, so no binary rounding can show up.
  const whole = Math.round(Math.abs(fen));
  const sign = fen < 0 && whole !== 0 ? '-' : '';
  return `${sign}${Math.floor(whole / 100)}.${pad(whole % 100)}`;
}

// ---------------------------------------------------------------------------------------------
// Layout

/** A mobile screen is one under 900 px wide (docs/spec-notes.md#9-presentation-and-timings). */
export function isMobileWidth(px: number): boolean {
  return px < MOBILE_MAX_WIDTH;
}

/** Phone with the middle four digits hidden (138****8000): the display name before a nickname is set. */
export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

/**
 * A yuan amount typed by a person ('98', '98.5', '98.50') as integer fen, read digit by digit so
 * no binary fraction can creep in; null for anything else (negative, more than two decimals,
 * more than 1,000,000 yuan, exponents, spaces inside).
 */
export function yuanTextToFen(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const fen = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return fen <= 100_000_000 ? fen : null;
}

/** Integer fen in upper-case Chinese money (大写), e.g. 9800 → '玖拾捌元整'; '' when not a safe integer. */
export function fenInWords(fen: number): string {
  if (!Number.isSafeInteger(fen)) return '';
  const sign = fen < 0 ? -1 : 1;
  const whole = Math.abs(fen);
  // Whole yuan plus a two-digit fraction, parsed back: exact for every safe integer of fen.
  return toChineseCurrency(sign * Number(`${Math.floor(whole / 100)}.${pad(whole % 100)}`));
}

export * from './words';

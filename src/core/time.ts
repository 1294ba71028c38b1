import { NANOS_PER_SECOND, type TimeNs } from './types.ts';

/**
 * Exact time text: RFC 3339 timestamps with nanoseconds and compact durations.
 *
 * Everything is integer arithmetic on the proleptic Gregorian calendar (no `Date`, no floats),
 * so nanoseconds survive every round trip.
 */

const SECONDS_PER_DAY = 86_400;
const NANOS_PER_SECOND_NUM = 1_000_000_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12; // March = 0
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Inverse of `daysFromCivil`. */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/**
 * RFC 3339 UTC text with exactly nine fractional digits:
 * `(1758691225, 264349545)` → `"2025-09-24T05:20:25.264349545Z"`. Seconds before 1970 are
 * negative (`nanos` still counts forward within the second).
 *
 * @param sec whole Unix seconds, a safe integer, within years 0000–9999.
 * @param nanos nanoseconds within the second, an integer in [0, 999 999 999].
 * @throws RangeError if an argument is out of range.
 */
export function formatTimestamp(sec: number, nanos: number): string {
  if (!Number.isSafeInteger(sec)) throw new RangeError(`formatTimestamp: sec must be a safe integer, got ${sec}`);
  if (!Number.isInteger(nanos) || nanos < 0 || nanos >= NANOS_PER_SECOND_NUM) {
    throw new RangeError(`formatTimestamp: nanos must be an integer in [0, 1e9), got ${nanos}`);
  }
  const days = Math.floor(sec / SECONDS_PER_DAY);
  const secOfDay = sec - days * SECONDS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  if (year < 0 || year > 9999) throw new RangeError(`formatTimestamp: year ${year} is outside 0000–9999`);
  const hh = Math.floor(secOfDay / 3600);
  const mm = Math.floor((secOfDay % 3600) / 60);
  const ss = secOfDay % 60;
  return (
    String(year).padStart(4, '0') + '-' + pad2(month) + '-' + pad2(day) +
    'T' + pad2(hh) + ':' + pad2(mm) + ':' + pad2(ss) +
    '.' + String(nanos).padStart(9, '0') + 'Z'
  );
}

/** `formatTimestamp` from integer nanoseconds since the epoch (may be negative). */
export function formatTimestampNs(tNs: TimeNs): string {
  const { sec, nanos } = splitNs(tNs);
  return formatTimestamp(sec, nanos);
}

/**
 * Splits nanoseconds since the epoch into whole seconds (floored, so negative before 1970) and
 * nanoseconds within the second in [0, 999 999 999] — the websocket `ts` / `tn` pair.
 *
 * @throws RangeError if the seconds are not a safe integer.
 */
export function splitNs(tNs: TimeNs): { sec: number; nanos: number } {
  let secBig = tNs / NANOS_PER_SECOND;
  let nanosBig = tNs % NANOS_PER_SECOND;
  if (nanosBig < 0n) {
    secBig -= 1n;
    nanosBig += NANOS_PER_SECOND;
  }
  const sec = Number(secBig);
  if (!Number.isSafeInteger(sec)) throw new RangeError(`splitNs: ${tNs} ns is out of range`);
  return { sec, nanos: Number(nanosBig) };
}

/**
 * Nanoseconds since the epoch from whole seconds and nanoseconds within the second; the inverse
 * of `splitNs`.
 *
 * @throws RangeError if `sec` is not a safe integer or `nanos` is not an integer in [0, 1e9).
 */
export function joinNs(sec: number, nanos: number): TimeNs {
  if (!Number.isSafeInteger(sec)) throw new RangeError(`joinNs: sec must be a safe integer, got ${sec}`);
  if (!Number.isInteger(nanos) || nanos < 0 || nanos >= NANOS_PER_SECOND_NUM) {
    throw new RangeError(`joinNs: nanos must be an integer in [0, 1e9), got ${nanos}`);
  }
  return BigInt(sec) * NANOS_PER_SECOND + BigInt(nanos);
}

const TIMESTAMP_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))?)?$/;

/**
 * Exact nanoseconds since the epoch from RFC 3339-style text.
 *
 * Accepts `YYYY-MM-DD[T| ]HH:MM:SS[.f…]` with 1–9 fractional digits and an offset `Z`, `z` or
 * `±HH:MM`; `t` is accepted for `T`. A missing offset means UTC (as FastAPI/pydantic treat naive
 * date-times here). A date alone, `YYYY-MM-DD`, is midnight UTC.
 *
 * @returns `undefined` for anything invalid: wrong shape, month 13, February 30, hour 24,
 *   leap second 60, offset hour above 23, more than nine fractional digits.
 */
export function parseTimestamp(text: string): TimeNs | undefined {
  const m = TIMESTAMP_TEXT.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  let secOfDay = 0;
  let nanos = 0;
  if (m[4] !== undefined) {
    const hh = Number(m[4]);
    const mi = Number(m[5]);
    const ss = Number(m[6]);
    if (hh > 23 || mi > 59 || ss > 59) return undefined;
    secOfDay = hh * 3600 + mi * 60 + ss;
    if (m[7] !== undefined) nanos = Number(m[7].padEnd(9, '0'));
    if (m[9] !== undefined) {
      const offH = Number(m[10]);
      const offM = Number(m[11]);
      if (offH > 23 || offM > 59) return undefined;
      const offset = offH * 3600 + offM * 60;
      secOfDay -= m[9] === '-' ? -offset : offset;
    }
  }
  const sec = daysFromCivil(year, month, day) * SECONDS_PER_DAY + secOfDay;
  return BigInt(sec) * NANOS_PER_SECOND + BigInt(nanos);
}

const NS_PER: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  '\u00b5s': 1_000n, // micro sign
  '\u03bcs': 1_000n, // Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
};

const DURATION_TERM = /(\d+)(?:\.(\d+))?(ns|us|\u00b5s|\u03bcs|ms|s|m|h|d)/y;

/**
 * Nanoseconds of a duration such as `"500ms"`, `"90s"`, `"1h30m"`, `"2.5s"`, `"1d"`.
 *
 * The text is one or more terms `<digits>[.<digits>]<unit>` with units `ns`, `us` (or `µs`, micro sign or Greek mu),
 * `ms`, `s`, `m`, `h`, `d` (24 h), concatenated without spaces and summed. `"0"` alone and
 * `"0s"` are zero. No sign, so never negative.
 *
 * @returns `undefined` on bad syntax (empty, unknown unit, spaces, sign, missing unit) or when a
 *   fraction does not come to a whole number of nanoseconds (`"0.5ns"`).
 */
export function parseDuration(text: string): TimeNs | undefined {
  if (text === '0') return 0n;
  if (text.length === 0) return undefined;
  DURATION_TERM.lastIndex = 0;
  let total = 0n;
  while (DURATION_TERM.lastIndex < text.length) {
    const m = DURATION_TERM.exec(text);
    if (m === null) return undefined;
    const unitNs = NS_PER[m[3]!]!;
    total += BigInt(m[1]!) * unitNs;
    if (m[2] !== undefined) {
      const fracNs = BigInt(m[2]) * unitNs;
      const divisor = 10n ** BigInt(m[2].length);
      if (fracNs % divisor !== 0n) return undefined;
      total += fracNs / divisor;
    }
  }
  return total;
}

const FORMAT_UNITS: readonly [string, bigint][] = [
  ['d', NS_PER.d!],
  ['h', NS_PER.h!],
  ['m', NS_PER.m!],
];

/** `whole.fraction` of `ns / unitNs` with no trailing fractional zeros. */
function formatUnits(ns: bigint, unitNs: bigint, unit: string): string {
  const whole = ns / unitNs;
  const rest = ns % unitNs;
  if (rest === 0n) return whole + unit;
  const width = unitNs.toString().length - 1;
  return whole + '.' + rest.toString().padStart(width, '0').replace(/0+$/, '') + unit;
}

/**
 * Compact text of a duration that `parseDuration` reads back exactly: days, hours and minutes
 * as whole units, then seconds with a fraction (`5_400_000_000_000n` → `"1h30m"`,
 * `1_500_000_000n` → `"1.5s"`, `86_400_000_000_000n` → `"1d"`). Under a second the largest of
 * `ms`, `us`, `ns` is used (`"500ms"`, `"1.5us"`). Zero is `"0s"`; negatives get a leading `-`
 * (which `parseDuration` does not accept).
 */
export function formatDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  if (ns < 0n) return '-' + formatDuration(-ns);
  if (ns < 1_000n) return ns + 'ns';
  if (ns < 1_000_000n) return formatUnits(ns, 1_000n, 'us');
  if (ns < NANOS_PER_SECOND) return formatUnits(ns, 1_000_000n, 'ms');
  let out = '';
  let rest = ns;
  for (const [unit, unitNs] of FORMAT_UNITS) {
    if (rest >= unitNs) {
      out += rest / unitNs + unit;
      rest %= unitNs;
    }
  }
  return rest === 0n ? out : out + formatUnits(rest, NANOS_PER_SECOND, 's');
}

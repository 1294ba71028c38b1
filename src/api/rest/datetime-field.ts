import { z } from 'zod';
import { parseTimestamp } from '../../core/time.ts';
import type { TimeNs } from '../../core/types.ts';
import { fail, field, ok, type Checked, type Field } from './validation.ts';

/**
 * The date-time field of the REST bodies, read as pydantic v2 (speedate, lax mode) reads one:
 * RFC 3339 / ISO 8601 text (`T`, `t`, `_` or space between date and time; seconds and
 * fraction optional; `Z` or `±HH[:]MM` offset, none meaning UTC), a date alone (midnight), or
 * Unix time as a number or numeric text (milliseconds above 2·10^10). Unlike pydantic it keeps
 * all nine fractional digits, because sim time is exact to the nanosecond.
 *
 * Errors use pydantic's types and wording; for text, as in pydantic, the reason given is the
 * one from re-reading the text as a date (so `2026-01-01T25:00:00Z` is reported as
 * "unexpected extra characters at the end of the input").
 */

const E = {
  tooShort: 'input is too short',
  extra: 'unexpected extra characters at the end of the input',
  year: 'invalid character in year',
  dateSep: 'invalid date separator, expected `-`',
  month: 'invalid character in month',
  day: 'invalid character in day',
  monthRange: 'month value is outside expected range of 1-12',
  dayRange: 'day value is outside expected range',
  dateTimeSep: 'invalid datetime separator, expected `T`, `t`, `_` or space',
  timeSep: 'invalid time separator, expected `:`',
  hour: 'invalid character in hour',
  minute: 'invalid character in minute',
  second: 'invalid character in second',
  hourRange: 'hour value is outside expected range of 0-23',
  minuteRange: 'minute value is outside expected range of 0-59',
  secondRange: 'second value is outside expected range of 0-59',
  fractionMissing: 'second fraction digits missing after `.`',
  tzSign: 'invalid timezone sign',
  tzHour: 'invalid timezone hour',
  tzMinute: 'invalid timezone minute',
  tzMinuteRange: 'timezone minute value is outside expected range of 0-59',
  tzRange: 'timezone offset must be less than 24 hours',
} as const;

class ParseError {
  constructor(readonly reason: string) {}
}

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9';

/** Two digits at `i` as a number, or a ParseError with `reason`. */
function two(text: string, i: number, reason: string): number {
  if (!isDigit(text[i]) || !isDigit(text[i + 1])) throw new ParseError(reason);
  return Number(text.slice(i, i + 2));
}

/** The `YYYY-MM-DD` prefix (validated), as speedate's `Date::parse_bytes_partial`. */
function datePart(text: string): string {
  if (text.length < 10) throw new ParseError(E.tooShort);
  for (let i = 0; i < 4; i++) if (!isDigit(text[i])) throw new ParseError(E.year);
  if (text[4] !== '-') throw new ParseError(E.dateSep);
  const month = two(text, 5, E.month);
  if (text[7] !== '-') throw new ParseError(E.dateSep);
  const day = two(text, 8, E.day);
  const year = Number(text.slice(0, 4));
  if (month < 1 || month > 12) throw new ParseError(E.monthRange);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (day < 1 || day > days) throw new ParseError(E.dayRange);
  return text.slice(0, 10);
}

/** Full date-time text → canonical RFC 3339 with nine fractional digits and an offset. */
function canonicalDateTime(text: string): string {
  const date = datePart(text);
  if (!['T', 't', ' ', '_'].includes(text[10] ?? '')) throw new ParseError(E.dateTimeSep);
  const hour = two(text, 11, E.hour);
  if (hour > 23) throw new ParseError(E.hourRange);
  if (text[13] !== ':') throw new ParseError(E.timeSep);
  const minute = two(text, 14, E.minute);
  if (minute > 59) throw new ParseError(E.minuteRange);
  let i = 16;
  let second = 0;
  let fraction = '';
  if (text[i] === ':') {
    second = two(text, i + 1, E.second);
    if (second > 59) throw new ParseError(E.secondRange);
    i += 3;
    if (text[i] === '.' || text[i] === ',') {
      i++;
      const start = i;
      while (isDigit(text[i])) i++;
      if (i === start) throw new ParseError(E.fractionMissing);
      fraction = text.slice(start, i);
    }
  }
  let offset = 'Z';
  const sign = text[i];
  if (sign === 'Z' || sign === 'z') i++;
  else if (sign !== undefined) {
    if (sign !== '+' && sign !== '-') throw new ParseError(E.tzSign);
    const tzHour = two(text, i + 1, E.tzHour);
    i += 3;
    if (text[i] === ':') i++; // "+01:00" and "+0100"; pydantic refuses "+01"
    const tzMinute = two(text, i, E.tzMinute);
    i += 2;
    if (tzMinute > 59) throw new ParseError(E.tzMinuteRange);
    if (tzHour > 23) throw new ParseError(E.tzRange);
    offset = `${sign}${String(tzHour).padStart(2, '0')}:${String(tzMinute).padStart(2, '0')}`;
  }
  if (i < text.length) throw new ParseError(E.extra);
  const pad = (n: number) => String(n).padStart(2, '0');
  // Digits beyond the ninth are truncated, as pydantic truncates beyond its sixth.
  return `${date}T${pad(hour)}:${pad(minute)}:${pad(second)}.${fraction.slice(0, 9).padEnd(9, '0')}${offset}`;
}

const NUMBER_TEXT = /^[+-]?\d+(?:\.\d+)?$/;
/** Above this many (seconds), a Unix time is read as milliseconds (speedate's watershed). */
const MS_WATERSHED = 20_000_000_000;
const MIN_NS = -62_135_596_800_000_000_000n; // 0001-01-01T00:00:00Z
const MAX_NS = 253_402_300_799_999_999_999n; // 9999-12-31T23:59:59.999999999Z

/** Beyond this magnitude (ms) a Unix time is outside RFC 3339's years 0001–9999 whatever its unit. */
const MAX_UNIX_MAGNITUDE = 1e15;

function fromUnix(value: number): Checked<TimeNs> {
  if (!Number.isFinite(value) || Math.abs(value) > MAX_UNIX_MAGNITUDE) return outOfRange();
  const ms = Math.abs(value) > MS_WATERSHED;
  // Integers convert exactly; fractions keep microseconds, as pydantic does.
  const ns = Number.isSafeInteger(value)
    ? BigInt(value) * (ms ? 1_000_000n : 1_000_000_000n)
    : BigInt(Math.round(value * (ms ? 1e3 : 1e6))) * 1_000n;
  if (ns < MIN_NS || ns > MAX_NS) return outOfRange();
  return ok(ns);
}

/** pydantic's answer to a Unix time outside years 0001–9999. */
function outOfRange(): Checked<never> {
  return fail('datetime_parsing', 'Input should be a valid datetime, dates after 9999 are not supported as unix timestamps', {
    error: 'dates after 9999 are not supported as unix timestamps',
  });
}

/** Checks one date-time input; exact nanoseconds since the epoch on success. */
export function checkDateTime(input: unknown): Checked<TimeNs> {
  if (typeof input === 'number' && Number.isFinite(input)) return fromUnix(input);
  if (typeof input !== 'string') return fail('datetime_type', 'Input should be a valid datetime');
  try {
    const ns = parseTimestamp(canonicalDateTime(input));
    if (ns !== undefined) return ok(ns);
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
  }
  if (NUMBER_TEXT.test(input)) {
    const unix = fromUnix(Number(input));
    if (unix.ok) return unix;
  }
  // pydantic's lax fallback: a date alone is midnight; otherwise the date's error is reported.
  let reason: string;
  try {
    const date = datePart(input);
    if (input.length === 10) return ok(parseTimestamp(date)!);
    reason = E.extra;
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    reason = e.reason;
  }
  return fail('datetime_from_date_parsing', `Input should be a valid datetime or date, ${reason}`, { error: reason });
}

/**
 * A required date-time field (see the module comment), documented as RFC 3339 text with an
 * offset (`Z` or ±HH:MM; any number of fractional digits), the form every client sends and a
 * subset of what the check accepts.
 */
export function dateTime(): Field<TimeNs> {
  return field(checkDateTime, z.iso.datetime({ offset: true }));
}

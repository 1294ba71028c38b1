import { describe, it, expect } from 'vitest';
import {
  formatDuration,
  formatTimestamp,
  formatTimestampNs,
  joinNs,
  parseDuration,
  parseTimestamp,
  splitNs,
} from '../../src/core/time.ts';
import { RandomStream } from '../../src/random/random-stream.ts';

const NS = 1_000_000_000n;
const VECTOR = '2025-09-24T05:20:25.264349545Z';
const VECTOR_NS = 1_758_691_225n * NS + 264_349_545n;

describe('formatTimestamp', () => {
  it('writes the known vector with nine fractional digits', () => {
    expect(formatTimestamp(1_758_691_225, 264_349_545)).toBe(VECTOR);
    expect(formatTimestampNs(VECTOR_NS)).toBe(VECTOR);
  });

  it('writes the epoch, times before it and leap days', () => {
    expect(formatTimestamp(0, 0)).toBe('1970-01-01T00:00:00.000000000Z');
    expect(formatTimestamp(-1, 0)).toBe('1969-12-31T23:59:59.000000000Z');
    expect(formatTimestampNs(-1n)).toBe('1969-12-31T23:59:59.999999999Z');
    expect(formatTimestamp(Date.UTC(2024, 1, 29, 12) / 1000, 5)).toBe('2024-02-29T12:00:00.000000005Z');
    expect(formatTimestamp(Date.UTC(2000, 1, 29) / 1000, 0)).toBe('2000-02-29T00:00:00.000000000Z');
    expect(formatTimestamp(Date.UTC(2100, 1, 28) / 1000 + 86_400, 0)).toBe('2100-03-01T00:00:00.000000000Z');
    expect(formatTimestamp(Date.UTC(9999, 11, 31, 23, 59, 59) / 1000, 999_999_999)).toBe(
      '9999-12-31T23:59:59.999999999Z',
    );
  });

  it('throws a RangeError for out-of-range arguments', () => {
    expect(() => formatTimestamp(0, 1_000_000_000)).toThrow(RangeError);
    expect(() => formatTimestamp(0, -1)).toThrow(RangeError);
    expect(() => formatTimestamp(0, 1.5)).toThrow(RangeError);
    expect(() => formatTimestamp(1.5, 0)).toThrow(RangeError);
    expect(() => formatTimestamp(Date.UTC(10000, 0, 1) / 1000, 0)).toThrow(/year/);
  });
});

describe('splitNs and joinNs', () => {
  it('split into floored seconds and forward nanoseconds', () => {
    expect(splitNs(VECTOR_NS)).toEqual({ sec: 1_758_691_225, nanos: 264_349_545 });
    expect(splitNs(0n)).toEqual({ sec: 0, nanos: 0 });
    expect(splitNs(-1n)).toEqual({ sec: -1, nanos: 999_999_999 });
    expect(splitNs(-NS)).toEqual({ sec: -1, nanos: 0 });
  });

  it('join back to the same nanoseconds and reject bad parts', () => {
    expect(joinNs(1_758_691_225, 264_349_545)).toBe(VECTOR_NS);
    expect(joinNs(-1, 999_999_999)).toBe(-1n);
    expect(() => joinNs(0, 1_000_000_000)).toThrow(RangeError);
    expect(() => joinNs(0.5, 0)).toThrow(RangeError);
    expect(() => joinNs(0, -1)).toThrow(RangeError);
  });

  it('round-trip seeded random nanoseconds of either sign', () => {
    const rng = new RandomStream('split-join');
    for (let i = 0; i < 3000; i++) {
      const tNs = BigInt(rng.int(-5e9, 5e9)) * NS + BigInt(rng.int(-1e9, 1e9));
      const { sec, nanos } = splitNs(tNs);
      expect(nanos).toBeGreaterThanOrEqual(0);
      expect(nanos).toBeLessThan(1e9);
      expect(joinNs(sec, nanos)).toBe(tNs);
    }
  });
});

describe('parseTimestamp', () => {
  it('reads the known vector exactly', () => {
    expect(parseTimestamp(VECTOR)).toBe(VECTOR_NS);
  });

  it('applies numeric offsets', () => {
    expect(parseTimestamp('2026-01-01T02:00:00+02:00')).toBe(parseTimestamp('2026-01-01T00:00:00Z'));
    expect(parseTimestamp('2025-12-31T18:30:00-05:30')).toBe(parseTimestamp('2026-01-01T00:00:00Z'));
    expect(parseTimestamp('2026-01-01T00:30:00+01:00')).toBe(parseTimestamp('2025-12-31T23:30:00Z'));
    expect(parseTimestamp('2026-01-01T00:00:00-00:00')).toBe(BigInt(Date.UTC(2026, 0, 1)) * 1_000_000n);
  });

  it('accepts lowercase markers, a space separator, naive times as UTC and bare dates', () => {
    const expected = BigInt(Date.UTC(2026, 0, 1, 12, 34, 56)) * 1_000_000n;
    expect(parseTimestamp('2026-01-01t12:34:56z')).toBe(expected);
    expect(parseTimestamp('2026-01-01 12:34:56Z')).toBe(expected);
    expect(parseTimestamp('2026-01-01T12:34:56')).toBe(expected);
    expect(parseTimestamp('2026-01-01')).toBe(BigInt(Date.UTC(2026, 0, 1)) * 1_000_000n);
  });

  it('reads fractions of one to nine digits exactly', () => {
    const base = parseTimestamp('2026-01-01T00:00:00Z')!;
    expect(parseTimestamp('2026-01-01T00:00:00.5Z')! - base).toBe(500_000_000n);
    expect(parseTimestamp('2026-01-01T00:00:00.000000001Z')! - base).toBe(1n);
    expect(parseTimestamp('2026-01-01T00:00:00.123Z')! - base).toBe(123_000_000n);
    expect(parseTimestamp('2026-01-01T00:00:00.999999999+00:00')! - base).toBe(999_999_999n);
  });

  it('returns undefined for invalid dates, times, offsets and shapes', () => {
    const invalid = [
      '',
      '2025-13-01T00:00:00Z',
      '2025-00-10T00:00:00Z',
      '2025-02-30T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '1900-02-29',
      '2025-04-31',
      '2025-01-00',
      '2025-01-01T24:00:00Z',
      '2025-01-01T23:60:00Z',
      '2025-01-01T23:59:60Z',
      '2025-01-01T00:00:00.1234567891Z',
      '2025-01-01T00:00:00.Z',
      '2025-9-24T05:20:25Z',
      '2025-09-24T05:20Z',
      '2025-09-24T',
      '2025-09-24T05:20:25+24:00',
      '2025-09-24T05:20:25+02:60',
      '2025-09-24T05:20:25+02',
      '2025-09-24T05:20:25+0200',
      '2025-09-24T05:20:25ZZ',
      '2025-09-24T05:20:25Z ',
      ' 2025-09-24',
      '2025-09-24Z',
      '20250924T052025Z',
      'yesterday',
    ];
    for (const text of invalid) expect(parseTimestamp(text), text).toBeUndefined();
  });

  it('round-trips seeded random times from 1970 to 2100 and matches Date.UTC to the millisecond', () => {
    const rng = new RandomStream('timestamp-roundtrip');
    const endSec = Date.UTC(2100, 0, 1) / 1000;
    for (let i = 0; i < 5000; i++) {
      const tNs = BigInt(rng.int(0, endSec - 1)) * NS + BigInt(rng.int(0, 999_999_999));
      const text = formatTimestampNs(tNs);
      expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/);
      expect(parseTimestamp(text)).toBe(tNs);
      const ms = Number(tNs / 1_000_000n);
      expect(text.slice(0, 23) + 'Z').toBe(new Date(ms).toISOString());
    }
  });

  it('reads every valid calendar date, leap days included, as Date.UTC does', () => {
    const rng = new RandomStream('timestamp-dates');
    let leapDays = 0;
    for (let i = 0; i < 3000; i++) {
      const year = rng.int(1970, 2099);
      const month = rng.int(1, 12);
      const day = i % 10 === 0 ? 29 : rng.int(1, 31);
      const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      const utc = Date.UTC(year, month - 1, day);
      const valid = new Date(utc).getUTCDate() === day;
      if (valid && month === 2 && day === 29) leapDays++;
      expect(parseTimestamp(text), text).toBe(valid ? BigInt(utc) * 1_000_000n : undefined);
    }
    expect(leapDays).toBeGreaterThan(0);
  });
});

describe('parseDuration', () => {
  it('reads single and concatenated terms in every unit', () => {
    const cases: [string, bigint][] = [
      ['500ms', 500_000_000n],
      ['1s', NS],
      ['90s', 90n * NS],
      ['15m', 900n * NS],
      ['1h', 3600n * NS],
      ['8h', 28_800n * NS],
      ['1d', 86_400n * NS],
      ['1h30m', 5400n * NS],
      ['1d2h3m4s5ms6us7ns', 93_784_005_006_007n],
      ['2.5s', 2_500_000_000n],
      ['1.5us', 1500n],
      ['1µs', 1000n],
      ['1μs', 1000n],
      ['0.5m', 30n * NS],
      ['250ns', 250n],
      ['0s', 0n],
      ['0', 0n],
      ['007s', 7n * NS],
    ];
    for (const [text, ns] of cases) expect(parseDuration(text), text).toBe(ns);
  });

  it('returns undefined for bad syntax and sub-nanosecond fractions', () => {
    for (const text of ['', '1', 's', '1x', '-1s', '+1s', '1 s', ' 1s', '1s ', '1.s', '.5s', '1h 30m', '1S', '1H', '0.5ns', '1.0001us', 'ms', '1hh', '00']) {
      expect(parseDuration(text), text).toBeUndefined();
    }
  });
});

describe('formatDuration', () => {
  it('writes compact text', () => {
    expect(formatDuration(5_400_000_000_000n)).toBe('1h30m');
    expect(formatDuration(1_500_000_000n)).toBe('1.5s');
    expect(formatDuration(86_400n * NS)).toBe('1d');
    expect(formatDuration(90n * NS)).toBe('1m30s');
    expect(formatDuration(3600n * NS + 500_000_000n)).toBe('1h0.5s');
    expect(formatDuration(500_000_000n)).toBe('500ms');
    expect(formatDuration(1_500_000n)).toBe('1.5ms');
    expect(formatDuration(1500n)).toBe('1.5us');
    expect(formatDuration(7n)).toBe('7ns');
    expect(formatDuration(0n)).toBe('0s');
    expect(formatDuration(-NS)).toBe('-1s');
  });

  it('round-trips through parseDuration for seeded random durations', () => {
    const rng = new RandomStream('duration-roundtrip');
    for (let i = 0; i < 5000; i++) {
      const digits = rng.int(1, 17);
      const ns = BigInt(Math.floor(rng.next() * 10 ** digits));
      const text = formatDuration(ns);
      expect(text).toMatch(/^([0-9]+(\.[0-9]*[1-9])?(d|h|m|s|ms|us|ns))+$/);
      expect(parseDuration(text), text).toBe(ns);
    }
  });
});

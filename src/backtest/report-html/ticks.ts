import { formatTimestampNs } from '../../core/time.ts';

/**
 * Axis ticks: "nice" numbers (1, 2, 5 × 10^k) for values and UTC-aligned steps for time.
 * Labels are built by hand (no Intl, no Date) so the page is byte-identical on every machine.
 */

export interface ValueTicks {
  /** Domain widened to whole steps. */
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly values: readonly number[];
}

/**
 * About `count` nice ticks covering [min, max]; a zero-width range is widened around its value.
 * `integer` keeps steps whole (1, 2, 5, 10, …) for counts such as contracts.
 */
export function niceTicks(min: number, max: number, count: number, integer = false): ValueTicks {
  if (!(max > min)) {
    const pad = min === 0 ? 1 : Math.abs(min) * 0.01;
    min -= pad;
    max += pad;
  }
  const step = niceStep((max - min) / Math.max(1, count), integer);
  const lo = Math.floor(min / step);
  const hi = Math.ceil(max / step);
  const values: number[] = [];
  for (let k = lo; k <= hi; k++) values.push(k * step);
  return { min: lo * step, max: hi * step, step, values };
}

function niceStep(raw: number, integer: boolean): number {
  if (integer && raw <= 1) return 1;
  const exp = Math.floor(Math.log10(raw));
  const base = 10 ** exp;
  const f = raw / base;
  const quarter = !(integer && exp === 0); // 2.5 is not whole
  const nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 && quarter ? 2.5 : f <= 5 ? 5 : 10;
  return nice * base;
}

/** Tick label for `value` on an axis with tick spacing `step`: "1.5k", "2M", "0.0025", "-300". */
export function formatTick(value: number, step: number): string {
  const abs = Math.max(Math.abs(value), step);
  // The largest unit that keeps labels to two decimals ("1,000.5k", not "1.0005M").
  for (const [div, suffix] of UNITS) {
    if (abs < (div === 1e3 ? 1e4 : div)) continue;
    const decimals = decimalsOf(step / div);
    if (decimals <= 2) return formatNumber(value / div, decimals) + suffix;
  }
  return formatNumber(value, decimalsOf(step));
}

const UNITS: readonly (readonly [number, string])[] = [[1e9, 'B'], [1e6, 'M'], [1e3, 'k']];

/** Fractional digits needed to show multiples of `step` exactly (2.5 → 1, 0.0005 → 4). */
function decimalsOf(step: number): number {
  for (let d = 0; d < 12; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * scaled) return d;
  }
  return 12;
}

/**
 * A number with thousands separators and at most `decimals` fractional digits, for labels on
 * the chart: `formatNumber(-12345.678, 2)` → "-12,345.68".
 */
export function formatNumber(value: number, decimals: number): string {
  let text = value.toFixed(decimals);
  if (decimals > 0) text = text.replace(/\.?0+$/, '');
  if (/^-0$/.test(text)) text = '0';
  const [int = '', frac] = text.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : grouped + '.' + frac;
}

export interface TimeTick {
  readonly tNs: bigint;
  /** Time of day ("14:30", "14:30:15", "15.250") or the date for steps of a day and more. */
  readonly label: string;
  /** The date ("2025-09-24") under the first tick and wherever the day changes. */
  readonly date?: string;
}

const MS = 1_000_000n;
const SEC = 1_000_000_000n;
const WEEK = 604_800n * SEC;
/** Candidate steps, each aligned to multiples of itself since the epoch (so to UTC midnight). */
const TIME_STEPS: readonly bigint[] = [
  1n * MS, 2n * MS, 5n * MS, 10n * MS, 20n * MS, 50n * MS, 100n * MS, 200n * MS, 500n * MS,
  1n * SEC, 2n * SEC, 5n * SEC, 10n * SEC, 15n * SEC, 30n * SEC,
  60n * SEC, 120n * SEC, 300n * SEC, 600n * SEC, 900n * SEC, 1800n * SEC,
  3600n * SEC, 7200n * SEC, 10_800n * SEC, 21_600n * SEC, 43_200n * SEC,
  86_400n * SEC, 172_800n * SEC, WEEK, 2_592_000n * SEC, 31_536_000n * SEC,
];

/** At most `maxTicks` (and at least two, unless the range is tiny) UTC ticks within [t0, t1]. */
export function timeTicks(t0: bigint, t1: bigint, maxTicks: number): TimeTick[] {
  const span = t1 > t0 ? t1 - t0 : 1n;
  const step = TIME_STEPS.find((s) => span / s < BigInt(maxTicks)) ?? TIME_STEPS[TIME_STEPS.length - 1]!;
  const ticks: TimeTick[] = [];
  // Steps align to multiples of themselves since the epoch, except weeks, which start on Mondays.
  const offset = step === WEEK ? 4n * 86_400n * SEC : 0n; // 1970-01-05 was a Monday
  let t = floorDiv(t0 - offset + step - 1n, step) * step + offset;
  let lastDate = '';
  for (; t <= t1; t += step) {
    const text = formatTimestampNs(t); // 2025-09-24T05:20:25.264349545Z
    const date = text.slice(0, 10);
    const label =
      step >= 86_400n * SEC ? date.slice(5) :
      step >= 60n * SEC ? text.slice(11, 16) :
      step >= SEC ? text.slice(11, 19) :
      text.slice(17, 23);
    ticks.push(date !== lastDate && step < 86_400n * SEC ? { tNs: t, label, date } : { tNs: t, label });
    lastDate = date;
  }
  return ticks;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

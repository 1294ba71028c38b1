import type { TickSize } from '../core/price.ts';
import type { BinanceRawEvent } from './binance-raw.ts';
import { DEPTH, LineHeaders, TICKER, TRADE } from './binance-headers.ts';
import { decimalSteps } from './fields.ts';
import type { Level } from './levels.ts';
import { ReplayError } from './replay-error.ts';
import { ChunkLines } from './line-chunks.ts';

const NS_PER_MS = 1_000_000n;
const QUOTE = 34;
const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const POW10: readonly number[] = Array.from({ length: 17 }, (_, i) => 10 ** i);

/**
 * A capture's lines decoded a chunk at a time (`textChunks`, line-chunks.ts), in place: a line
 * of the plain shape the exchange sends (`binance-headers.ts`) from its headers and its price
 * and quantity texts, with no line string, no JSON tree, no field map and no string per level;
 * any other line, and any whose price or quantity the plain path does not read, by the full
 * line decoder (`full`, which reads it or throws its `ReplayError`). Both give the same event
 * for a line (test/replay/binance-chunk.test.ts): the full decoder was the reader's cost.
 */
export class ChunkDecoder {
  private readonly h = new LineHeaders();
  private readonly lines = new ChunkLines();
  private readonly tickScale: number;
  private readonly lotScale: number;
  /** d when the step is 10^-d, else -1. */
  private readonly tickDigits: number;
  private readonly lotDigits: number;
  /** Where the text `plainText` read last ends (its closing quote). */
  private textEnd = 0;
  // The last event time converted (lines in a burst share it).
  private lastMs = -1;
  private lastNs = 0n;

  constructor(
    private readonly tick: TickSize,
    private readonly lot: TickSize,
    /** Book tickers for their times only (as `BinanceRawOptions.tickerTimesOnly`); else they are decoded in full. */
    private readonly tickerTimesOnly: boolean,
    private readonly full: (text: string, line: number) => BinanceRawEvent,
    /** Diffs carry their levels as numbers (`packed`), with no object per level. */
    private readonly packed = false,
  ) {
    this.tickScale = tick.priceScale;
    this.lotScale = lot.priceScale;
    this.tickDigits = powerOfTen(tick.priceScale);
    this.lotDigits = powerOfTen(lot.priceScale);
  }

  /**
   * The events of the lines of `bytes` (whole lines: `textChunks`), numbered from `firstLine`,
   * appended to `out`; a bad line's `ReplayError` goes to `onError` (which throws, or counts
   * it). Returns the number of the line after the chunk's last.
   */
  decode(bytes: Buffer, firstLine: number, out: BinanceRawEvent[], onError: (e: ReplayError) => void): number {
    let line = firstLine;
    const lines = this.lines;
    lines.reset(bytes);
    for (; lines.advance(); line++) {
      const { start, end } = lines;
      if (end === start) continue;
      const e = this.plain(bytes, start, end, line, lines.plain());
      if (e !== undefined) out.push(e);
      else {
        try {
          out.push(this.full(bytes.toString('utf8', start, end), line));
        } catch (err) {
          if (!(err instanceof ReplayError)) throw err;
          onError(err);
        }
      }
    }
    return line;
  }

  /** The line's event from its headers and texts, or undefined: the full decoder then reads it. */
  private plain(b: Buffer, start: number, end: number, line: number, noBackslash: boolean): BinanceRawEvent | undefined {
    const h = this.h;
    const kind = h.scan(b, start, end, noBackslash);
    if (kind === TICKER) {
      if (!this.tickerTimesOnly) return undefined;
      const localTsNs = receiptNs(b, start, h.recvEnd);
      return { kind: 'bookTicker', localTsNs, eventTsNs: this.ns(h.eMs), transactTsNs: BigInt(h.tMs) * NS_PER_MS, line, updateId: h.updateId, bidPriceTicks: NaN, bidQtyLots: NaN, askPriceTicks: NaN, askQtyLots: NaN };
    }
    if (kind === TRADE) {
      const priceTicks = this.steps(b, h.priceStart, h.priceEnd, this.tick, this.tickScale, this.tickDigits);
      const qtyLots = this.steps(b, h.qtyStart, h.qtyEnd, this.lot, this.lotScale, this.lotDigits);
      if (priceTicks < 0 || qtyLots < 0) return undefined;
      const localTsNs = receiptNs(b, start, h.recvEnd);
      return { kind: 'trade', localTsNs, eventTsNs: this.ns(h.eMs), transactTsNs: BigInt(h.tMs) * NS_PER_MS, line, tradeId: h.tradeId, priceTicks, qtyLots, takerSide: h.maker ? 'S' : 'B' };
    }
    if (kind !== DEPTH) return undefined;
    const values: number[] = new Array(2 * (h.bCount + h.aCount));
    if (!this.levels(b, h.bAt, h.bCount, values, 0) || !this.levels(b, h.aAt, h.aCount, values, 2 * h.bCount)) return undefined;
    const localTsNs = receiptNs(b, start, h.recvEnd);
    const common = { localTsNs, eventTsNs: this.ns(h.eMs), transactTsNs: BigInt(h.tMs) * NS_PER_MS, line, firstUpdateId: h.firstUpdateId, finalUpdateId: h.finalUpdateId, prevFinalUpdateId: h.prevFinalUpdateId };
    if (this.packed) return { kind: 'depth', ...common, bids: NONE, asks: NONE, packed: { values, bids: h.bCount } };
    return { kind: 'depth', ...common, bids: objects(values, 0, h.bCount), asks: objects(values, 2 * h.bCount, h.aCount) };
  }

  /**
   * `count` levels of the list at `at` (its `[`; its shape checked by the scan) into `out` from
   * `offset` (price, quantity, …); false when one is not on the steps. Each text is read once,
   * byte by byte, to its closing quote (an `indexOf` per text, then the conversion, cost twice as much).
   */
  private levels(b: Buffer, at: number, count: number, out: number[], offset: number): boolean {
    let p = at + 3; // after `[["`
    for (let i = 0, o = offset; i < count; i++, o += 2) {
      let priceTicks = this.plainText(b, p, this.tickScale, this.tickDigits);
      const pEnd = this.textEnd;
      const q = pEnd + 3; // after `","`
      let qtyLots = this.plainText(b, q, this.lotScale, this.lotDigits);
      const qEnd = this.textEnd;
      if (priceTicks < 0) priceTicks = decimalSteps(b.toString('latin1', p, pEnd), this.tick) ?? -1;
      if (qtyLots < 0) qtyLots = decimalSteps(b.toString('latin1', q, qEnd), this.lot) ?? -1;
      if (priceTicks < 0 || qtyLots < 0) return false;
      out[o] = priceTicks;
      out[o + 1] = qtyLots;
      p = qEnd + 5; // after `"],["`
    }
    return true;
  }

  /**
   * The steps in the string text from `start` to its closing quote (`textEnd`), read in the same
   * pass as the quote is found; -1 when it is not plain (then `decimalSteps` decides). For a step
   * of 10^-d (`digits` = d) trailing zeros are dropped as read and the count is one multiply: a
   * float `%` and `/` per text (the general path, any other step) were a third of a level's cost.
   */
  private plainText(b: Uint8Array, start: number, scale: number, digits: number): number {
    let mantissa = 0;
    let decimals = -1;
    let zeros = 0; // fractional zeros not yet folded into the mantissa
    let plain = true;
    let k = start;
    for (let c = b[k]; c !== QUOTE; c = b[++k]) {
      if (c === undefined) return -1; // (the scan checked the closing quote is there)
      if (c >= DIGIT_0 && c <= DIGIT_9) {
        const digit = c - DIGIT_0;
        if (decimals < 0) mantissa = mantissa * 10 + digit;
        else if (digit === 0) zeros++;
        else {
          mantissa = mantissa * POW10[zeros + 1]! + digit;
          decimals += zeros + 1;
          zeros = 0;
        }
      } else if (c === DOT && decimals < 0 && k > start) decimals = 0;
      else plain = false;
    }
    this.textEnd = k;
    if (!plain || k === start || k - start > 16 || mantissa > Number.MAX_SAFE_INTEGER) return -1;
    if (decimals < 0) decimals = 0;
    if (digits >= 0) {
      // The last folded digit is not 0: more decimals than the step has is not a multiple of it.
      if (decimals > digits) return -1;
      const steps = mantissa * POW10[digits - decimals]!;
      return steps > Number.MAX_SAFE_INTEGER ? -1 : steps;
    }
    const scaled = mantissa * scale;
    if (scaled > Number.MAX_SAFE_INTEGER) return -1;
    const divisor = POW10[decimals]!;
    return scaled % divisor === 0 ? scaled / divisor : -1;
  }

  /** Steps of the decimal text at [start, end) (a string's, followed by its quote): the plain path, else `decimalSteps`; -1 when neither reads it. */
  private steps(b: Buffer, start: number, end: number, step: TickSize, scale: number, digits: number): number {
    const n = this.plainText(b, start, scale, digits);
    if (n >= 0) return n;
    return decimalSteps(b.toString('latin1', start, end), step) ?? -1;
  }

  private ns(ms: number): bigint {
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastNs = BigInt(ms) * NS_PER_MS;
    }
    return this.lastNs;
  }
}

/** d when `scale` is 10^d (d <= 16), else -1. */
function powerOfTen(scale: number): number {
  return POW10.indexOf(scale);
}

/**
 * The receipt time's digits `b[start, end)` (1 to 19, checked by the scan) as ns: two exact
 * numbers, then one bigint (parsing a bigint from a string cost more than the line's scan).
 */
export function receiptNs(b: Uint8Array, start: number, end: number): bigint {
  const split = end - 9 > start ? end - 9 : start;
  let hi = 0;
  for (let i = start; i < split; i++) hi = hi * 10 + (b[i]! - DIGIT_0);
  let lo = 0;
  for (let i = split; i < end; i++) lo = lo * 10 + (b[i]! - DIGIT_0);
  return split === start ? BigInt(lo) : BigInt(hi) * GIGA + BigInt(lo);
}

const GIGA = 1_000_000_000n;

const NONE: Level[] = [];

/** `count` packed levels from `from` as objects. */
function objects(values: readonly number[], from: number, count: number): Level[] {
  const out: Level[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = { priceTicks: values[from + 2 * i]!, qtyLots: values[from + 2 * i + 1]! };
  return out;
}

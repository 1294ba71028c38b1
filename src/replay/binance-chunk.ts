import type { TickSize } from '../core/price.ts';
import type { BinanceRawEvent } from './binance-raw.ts';
import { DEPTH, LineHeaders, plainSteps, TICKER, TRADE } from './binance-headers.ts';
import { decimalSteps } from './fields.ts';
import type { Level } from './levels.ts';
import { ReplayError } from './replay-error.ts';

const NS_PER_MS = 1_000_000n;
/** `\\` as a byte: a line with one is read by the full decoder (found with `Buffer.indexOf`: a search of the chunk string for it cost ~1.3 ns a char). */
const BACKSLASH = 92;

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
  private readonly tickScale: number;
  private readonly lotScale: number;
  // The last event time converted (lines in a burst share it).
  private lastMs = -1;
  private lastNs = 0n;

  constructor(
    private readonly tick: TickSize,
    private readonly lot: TickSize,
    /** Book tickers for their times only (as `BinanceRawOptions.tickerTimesOnly`); else they are decoded in full. */
    private readonly tickerTimesOnly: boolean,
    private readonly full: (text: string, line: number) => BinanceRawEvent,
  ) {
    this.tickScale = tick.priceScale;
    this.lotScale = lot.priceScale;
  }

  /**
   * The events of the lines of `text` (= `bytes` one char a byte), numbered from `firstLine`,
   * appended to `out`; a bad line's `ReplayError` goes to `onError` (which throws, or counts
   * it). Returns the number of the line after the chunk's last.
   */
  decode(bytes: Buffer, text: string, firstLine: number, out: BinanceRawEvent[], onError: (e: ReplayError) => void): number {
    let line = firstLine;
    let backslash = bytes.indexOf(BACKSLASH);
    for (let start = 0; start < text.length; line++) {
      const nl = text.indexOf('\n', start);
      const next = nl < 0 ? text.length : nl + 1;
      const end = nl < 0 ? text.length : nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      if (end > start) {
        if (backslash >= 0 && backslash < start) backslash = bytes.indexOf(BACKSLASH, start);
        const e = this.plain(text, start, end, line, backslash < 0 || backslash >= end);
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
      start = next;
    }
    return line;
  }

  /** The line's event from its headers and texts, or undefined: the full decoder then reads it. */
  private plain(text: string, start: number, end: number, line: number, noBackslash: boolean): BinanceRawEvent | undefined {
    const h = this.h;
    const kind = h.scan(text, start, end, noBackslash);
    if (kind === TICKER) {
      if (!this.tickerTimesOnly) return undefined;
      const localTsNs = BigInt(text.slice(start, h.recvEnd));
      return { kind: 'bookTicker', localTsNs, eventTsNs: this.ns(h.eMs), transactTsNs: BigInt(h.tMs) * NS_PER_MS, line, updateId: h.updateId, bidPriceTicks: NaN, bidQtyLots: NaN, askPriceTicks: NaN, askQtyLots: NaN };
    }
    if (kind === TRADE) {
      const priceTicks = this.steps(text, h.priceStart, h.priceEnd, this.tick, this.tickScale);
      const qtyLots = this.steps(text, h.qtyStart, h.qtyEnd, this.lot, this.lotScale);
      if (priceTicks < 0 || qtyLots < 0) return undefined;
      const localTsNs = BigInt(text.slice(start, h.recvEnd));
      return { kind: 'trade', localTsNs, eventTsNs: this.ns(h.eMs), transactTsNs: BigInt(h.tMs) * NS_PER_MS, line, tradeId: h.tradeId, priceTicks, qtyLots, takerSide: h.maker ? 'S' : 'B' };
    }
    if (kind !== DEPTH) return undefined;
    const bids = this.levels(text, h.bAt, h.bCount);
    const asks = bids === undefined ? undefined : this.levels(text, h.aAt, h.aCount);
    if (bids === undefined || asks === undefined) return undefined;
    const localTsNs = BigInt(text.slice(start, h.recvEnd));
    return { kind: 'depth', localTsNs, eventTsNs: this.ns(h.eMs), transactTsNs: BigInt(h.tMs) * NS_PER_MS, line, firstUpdateId: h.firstUpdateId, finalUpdateId: h.finalUpdateId, prevFinalUpdateId: h.prevFinalUpdateId, bids, asks };
  }

  /** `count` levels of the list at `at` (its `[`; its shape checked by the scan), or undefined when one is not plainly on the steps. */
  private levels(text: string, at: number, count: number): Level[] | undefined {
    const out: Level[] = new Array(count);
    let p = at + 3; // after `[["`
    for (let i = 0; i < count; i++) {
      const pEnd = text.indexOf('"', p);
      const q = pEnd + 3; // after `","`
      const qEnd = text.indexOf('"', q);
      const priceTicks = this.steps(text, p, pEnd, this.tick, this.tickScale);
      const qtyLots = this.steps(text, q, qEnd, this.lot, this.lotScale);
      if (priceTicks < 0 || qtyLots < 0) return undefined;
      out[i] = { priceTicks, qtyLots };
      p = qEnd + 5; // after `"],["`
    }
    return out;
  }

  /** Steps of the decimal text at [start, end): the plain path, else `decimalSteps`; -1 when neither reads it. */
  private steps(text: string, start: number, end: number, step: TickSize, scale: number): number {
    const n = plainSteps(text, start, end, scale);
    if (n >= 0) return n;
    return decimalSteps(text.slice(start, end), step) ?? -1;
  }

  private ns(ms: number): bigint {
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastNs = BigInt(ms) * NS_PER_MS;
    }
    return this.lastNs;
  }
}

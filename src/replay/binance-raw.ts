import { TickSize } from '../core/price.ts';
import type { ByteSource } from './byte-source.ts';
import { fileSource } from './file-source.ts';
import { textChunks } from './line-chunks.ts';
import { ChunkDecoder } from './binance-chunk.ts';
import { ChunkedStream } from './chunked-stream.ts';
import { lastPlainIntField, plainIntField, scanStreamMessage, type ScannedData } from './binance-scan.ts';
import { decimalSteps } from './fields.ts';
import type { Level } from './levels.ts';
import type { BinanceBookTicker, BinanceDepthSnapshot, BinanceRawEvent } from './binance-events.ts';
import { ReplayError, RowErrors } from './replay-error.ts';

/**
 * Streaming reader of Binance futures websocket captures as hftbacktest's collector writes
 * them (gzip text, one message a line): `<receipt ns> <raw JSON>`, where the JSON is a
 * combined-stream envelope (`<sym>@depth@0ms`, `<sym>@trade`, `<sym>@bookTicker`) or the one
 * REST depth snapshot (`{"lastUpdateId", "E", "T", "bids", "asks"}`). Events come in file
 * order; apply Binance's depth rule with `BinanceDepthSync`.
 */

export type { BinanceBookTicker, BinanceDepthDiff, BinanceDepthSnapshot, BinanceRawEvent, BinanceTrade } from './binance-events.ts';

/** Instrument units and bad-line handling. */
export interface BinanceRawOptions {
  /** Price tick, e.g. `"0.1"` for BTCUSDT, `"0.01"` for ETHUSDT. */
  tickSize: string | TickSize;
  /** Quantity step, e.g. `"0.001"` (USD-M BTC), `"1"` (COIN-M contracts). */
  lotSize: string | TickSize;
  /** Count undecodable lines (or other streams) in `errors` and go on, instead of throwing. */
  skipBadRows?: boolean;
  /**
   * Book tickers are read for their times only (prices and sizes NaN, not checked): for a
   * replay of the depth, which places them in time and ignores them otherwise. A bookTicker
   * line of any unusual shape is still decoded in full.
   */
  tickerTimesOnly?: boolean;
  /** Diffs read in place carry their levels as numbers (`BinanceDepthDiff.packed`), for `binanceBatches`. */
  packedLevels?: boolean;
}

/** The stream of events plus its bad-line counts (filled while iterating). */
export interface BinanceRawStream extends ChunkedStream<BinanceRawEvent> {
  readonly errors: RowErrors;
}

/** Reads a capture file (gzip or plain) line by line. */
export function readBinanceRaw(source: string | ByteSource, options: BinanceRawOptions): BinanceRawStream {
  const bytes = typeof source === 'string' ? fileSource(source) : source;
  const errors = new RowErrors(options.skipBadRows ?? false);
  const tick = typeof options.tickSize === 'string' ? new TickSize(options.tickSize) : options.tickSize;
  const lot = typeof options.lotSize === 'string' ? new TickSize(options.lotSize) : options.lotSize;
  const timesOnly = options.tickerTimesOnly === true;
  const stream = new ChunkedStream(() => {
    const full = new LineDecoder(bytes.name, tick, lot, timesOnly);
    return events(bytes, new ChunkDecoder(tick, lot, timesOnly, (text, line) => full.decode(text, line), options.packedLevels === true), errors);
  }) as BinanceRawStream;
  return Object.assign(stream, { errors });
}

async function* events(source: ByteSource, decoder: ChunkDecoder, errors: RowErrors): AsyncGenerator<BinanceRawEvent[]> {
  let line = 1;
  const onError = (e: ReplayError): void => errors.handle(e);
  for await (const bytes of textChunks(source)) {
    const out: BinanceRawEvent[] = [];
    line = decoder.decode(bytes, line, out, onError);
    yield out;
  }
}

/** One line's decoder (what the reader runs on every line): throws a `ReplayError` naming the line and field. */
export function binanceLineDecoder(file: string, tickSize: string, lotSize: string, tickerTimesOnly = false): (text: string, line: number) => BinanceRawEvent {
  const decoder = new LineDecoder(file, new TickSize(tickSize), new TickSize(lotSize), tickerTimesOnly);
  return (text, line) => decoder.decode(text, line);
}

const NS_PER_MS = 1_000_000n;
/** Streams the scanner reads (the others go to JSON.parse). */
const scansStream = (stream: string): boolean => stream.endsWith('@trade') || DEPTH_STREAM.test(stream);
const DEPTH_STREAM = /@depth(@\d+ms)?$/;
/** Decodes one line; every failure names the line and the JSON field. */
class LineDecoder {
  private line = 0;

  constructor(
    private readonly file: string,
    private readonly tick: TickSize,
    private readonly lot: TickSize,
    private readonly tickerTimesOnly = false,
  ) {}

  decode(text: string, line: number): BinanceRawEvent {
    this.line = line;
    const space = text.indexOf(' ');
    const tsText = space < 0 ? '' : text.slice(0, space);
    if (!/^\d{1,19}$/.test(tsText)) throw this.error('1', 'a line must start with the receipt time in ns and a space');
    const localTsNs = BigInt(tsText);
    const times = this.tickerTimesOnly ? this.tickerTimes(text, space, localTsNs, line) : undefined;
    if (times !== undefined) return times;
    const scanned = scanStreamMessage(text, space + 1, scansStream);
    const fast = scanned === undefined ? undefined : this.fromScanned(scanned, localTsNs, line);
    if (fast !== undefined) return fast;
    let json: unknown;
    try {
      json = JSON.parse(text.slice(space + 1));
    } catch (e) {
      throw this.error('2', `bad JSON (${(e as Error).message})`);
    }
    const envelope = json as { stream?: unknown; data?: Record<string, unknown>; lastUpdateId?: unknown };
    if (envelope.stream === undefined) return this.snapshot(json as Record<string, unknown>, localTsNs);
    const data = envelope.data ?? {};
    const stream = String(envelope.stream);
    const common = { localTsNs, eventTsNs: this.ms(data, 'E'), transactTsNs: this.ms(data, 'T'), line };
    if (stream.endsWith('@trade')) {
      return {
        kind: 'trade',
        ...common,
        tradeId: this.id(data, 't'),
        priceTicks: this.steps(data.p, this.tick, 'data.p'),
        qtyLots: this.steps(data.q, this.lot, 'data.q'),
        takerSide: this.flag(data, 'm') ? 'S' : 'B',
      };
    }
    if (stream.endsWith('@bookTicker')) {
      return {
        kind: 'bookTicker',
        ...common,
        updateId: this.id(data, 'u'),
        bidPriceTicks: this.steps(data.b, this.tick, 'data.b'),
        bidQtyLots: this.steps(data.B, this.lot, 'data.B'),
        askPriceTicks: this.steps(data.a, this.tick, 'data.a'),
        askQtyLots: this.steps(data.A, this.lot, 'data.A'),
      };
    }
    if (/@depth(@\d+ms)?$/.test(stream)) {
      return {
        kind: 'depth',
        ...common,
        firstUpdateId: this.id(data, 'U'),
        finalUpdateId: this.id(data, 'u'),
        prevFinalUpdateId: this.id(data, 'pu'),
        bids: this.levels(data.b, 'data.b'),
        asks: this.levels(data.a, 'data.a'),
      };
    }
    throw this.error('stream', `stream ${JSON.stringify(stream)} is not depth, trade or bookTicker`);
  }

  /** A plain bookTicker line's times (its prices NaN), or undefined: then it is decoded in full. */
  private tickerTimes(text: string, space: number, localTsNs: bigint, line: number): BinanceBookTicker | undefined {
    if (!text.startsWith('{"stream":"', space + 1) || !text.endsWith('}}')) return undefined;
    const streamEnd = text.indexOf('"', space + 12);
    if (streamEnd < 0 || !text.startsWith('@bookTicker","data":{', streamEnd - 11)) return undefined;
    const E = lastPlainIntField(text, '"E":', streamEnd);
    const T = lastPlainIntField(text, '"T":', streamEnd);
    const u = plainIntField(text, '"u":', streamEnd);
    if (!(E >= 0 && T >= 0 && u >= 0)) return undefined;
    return { kind: 'bookTicker', localTsNs, eventTsNs: BigInt(E) * NS_PER_MS, transactTsNs: BigInt(T) * NS_PER_MS, line, updateId: u, bidPriceTicks: NaN, bidQtyLots: NaN, askPriceTicks: NaN, askQtyLots: NaN };
  }

  /**
   * A depth or trade message from the scanner, or undefined when a field is missing or of
   * another type (the JSON path then decodes the line and names the problem).
   */
  private fromScanned(d: ScannedData, localTsNs: bigint, line: number): BinanceRawEvent | undefined {
    const E = d.ints.get('E');
    const T = d.ints.get('T');
    if (E === undefined || T === undefined) return undefined;
    const common = { localTsNs, eventTsNs: BigInt(E) * NS_PER_MS, transactTsNs: BigInt(T) * NS_PER_MS, line };
    if (d.stream.endsWith('@trade')) {
      const t = d.ints.get('t');
      const p = d.strings.get('p');
      const q = d.strings.get('q');
      const m = d.flags.get('m');
      if (t === undefined || p === undefined || q === undefined || m === undefined) return undefined;
      const priceTicks = decimalSteps(p, this.tick);
      const qtyLots = decimalSteps(q, this.lot);
      if (priceTicks === undefined || qtyLots === undefined) return undefined;
      return { kind: 'trade', ...common, tradeId: t, priceTicks, qtyLots, takerSide: m ? 'S' : 'B' };
    }
    if (!DEPTH_STREAM.test(d.stream)) return undefined;
    const U = d.ints.get('U');
    const u = d.ints.get('u');
    const pu = d.ints.get('pu');
    const b = d.pairs.get('b');
    const a = d.pairs.get('a');
    if (U === undefined || u === undefined || pu === undefined || b === undefined || a === undefined) return undefined;
    const bids = this.scannedLevels(b);
    const asks = this.scannedLevels(a);
    if (bids === undefined || asks === undefined) return undefined;
    return { kind: 'depth', ...common, firstUpdateId: U, finalUpdateId: u, prevFinalUpdateId: pu, bids, asks };
  }

  private scannedLevels(flat: readonly string[]): Level[] | undefined {
    const out: Level[] = new Array(flat.length / 2);
    for (let i = 0; i < flat.length; i += 2) {
      const priceTicks = decimalSteps(flat[i]!, this.tick);
      const qtyLots = decimalSteps(flat[i + 1]!, this.lot);
      if (priceTicks === undefined || qtyLots === undefined) return undefined;
      out[i / 2] = { priceTicks, qtyLots };
    }
    return out;
  }

  private snapshot(json: Record<string, unknown>, localTsNs: bigint): BinanceDepthSnapshot {
    if (json.lastUpdateId === undefined) throw this.error('2', 'neither a stream message nor a REST depth snapshot');
    return {
      kind: 'depthSnapshot',
      localTsNs,
      eventTsNs: this.ms(json, 'E'),
      transactTsNs: this.ms(json, 'T'),
      line: this.line,
      lastUpdateId: this.id(json, 'lastUpdateId'),
      bids: this.levels(json.bids, 'bids'),
      asks: this.levels(json.asks, 'asks'),
    };
  }

  private levels(value: unknown, path: string): Level[] {
    if (!Array.isArray(value)) throw this.error(path, 'must be an array of [price, quantity]');
    const out: Level[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const pair: unknown = value[i];
      if (!Array.isArray(pair) || pair.length < 2) throw this.error(`${path}[${i}]`, 'must be [price, quantity]');
      out[i] = { priceTicks: this.steps(pair[0], this.tick, `${path}[${i}][0]`), qtyLots: this.steps(pair[1], this.lot, `${path}[${i}][1]`) };
    }
    return out;
  }

  private steps(value: unknown, step: TickSize, path: string): number {
    const n = typeof value === 'string' ? decimalSteps(value, step) : undefined;
    if (n === undefined) throw this.error(path, `${JSON.stringify(value)} is not a decimal string on the step ${step.text}`);
    return n;
  }

  /** Binance's trade and update ids count up from 0: a negative one is a damaged line, not an id. */
  private id(data: Record<string, unknown>, key: string): number {
    const value = data[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw this.error(key, `${JSON.stringify(value)} is not a non-negative integer id`);
    return value;
  }

  private ms(data: Record<string, unknown>, key: string): bigint {
    const value = data[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw this.error(key, `${JSON.stringify(value)} is not a time in ms`);
    return BigInt(value) * NS_PER_MS;
  }

  private flag(data: Record<string, unknown>, key: string): boolean {
    const value = data[key];
    if (typeof value !== 'boolean') throw this.error(key, `${JSON.stringify(value)} is not true or false`);
    return value;
  }

  private error(column: string, reason: string): ReplayError {
    return new ReplayError(this.file, this.line, column, reason);
  }
}

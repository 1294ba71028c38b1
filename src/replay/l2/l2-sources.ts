import type { ExternalLevelUpdate } from '../../venue/external-liquidity.ts';
import type { MarketRecord } from '../market-records.ts';
import { mergeSources } from '../market-stream.ts';
import { openRecordSources, type RecordSource } from '../open-records.ts';
import { isL1Record, touchEvent } from '../l1/l1-records.ts';
import { ReplayError } from '../replay-error.ts';
import type { L2BookEvent, L2Event } from './l2-event.ts';

/**
 * The L2 replay's events, read through the one road from recordings (`open-records.ts`,
 * `market-stream.ts`): every file opened by content, merged into one normalized record stream
 * at exchange time, and turned into venue terms here. (Branch `replay` replaces this adapter
 * with a consumer of the record stream itself.)
 */

/** Formats an L2 scenario may name; the files are read by content whatever it says. */
export const L2_FORMATS = ['tardis', 'binance'] as const;
export type L2Format = (typeof L2_FORMATS)[number];

/** One recorded file and the replayed market it feeds. */
export interface L2FileSpec {
  path: string;
  /** Index of the replayed market. */
  market: number;
  /** The market's tick size and the recording's quantity step (= one venue lot), decimal text. */
  tickSize: string;
  lotSize: string;
  /** Of a file holding several symbols (a recording, a normalized file): the one this market takes. */
  symbol?: string;
  /** An L1 + trades replay (src/replay/l1): its level rows are dropped, its quotes are the book. */
  l1?: boolean;
}

/**
 * Every file's L2 events as one time-ordered stream (exchange time; at equal times tickers,
 * then trades, then book changes, then file order), in arrays as the merged record batches
 * are read. A replay streams it from a reader thread (`l2-stream.ts`).
 */
export async function* streamL2Chunks(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): AsyncGenerator<L2Event[]> {
  const sources: RecordSource[] = [];
  const markets: { market: number; symbol: string | undefined; l1: boolean }[] = [];
  for (const group of groupsOf(files)) {
    const f = group[0]!;
    const opened = await openRecordSources(group.map((g) => g.path), { units: { tickSize: f.tickSize, lotSize: f.lotSize }, skipBadRows: options.skipBadRows });
    for (const s of opened) {
      checkUnits(s, f);
      sources.push(s);
      // Only a file of several symbols is filtered (a file's own symbol name may differ from the scenario's key).
      markets.push({ market: f.market, symbol: Object.keys(s.instruments).length > 1 ? f.symbol : undefined, l1: f.l1 === true });
    }
  }
  const builder = new L2EventBuilder(sources, markets);
  for await (const batch of mergeSources(sources, 'exchange')) {
    const out: L2Event[] = [];
    builder.out = out;
    for (let i = 0; i < batch.records.length; i++) builder.add(batch.records[i]!, batch.source[i]!, batch.timeNs[i]!);
    yield out;
  }
  const out: L2Event[] = [];
  builder.out = out;
  builder.close();
  yield out;
}

/** `streamL2Chunks` read into memory (several runs of one recording, tests). */
export async function loadL2Events(files: readonly L2FileSpec[], options: { skipBadRows?: boolean } = {}): Promise<L2Event[]> {
  const out: L2Event[] = [];
  for await (const chunk of streamL2Chunks(files, options)) for (const e of chunk) out.push(e);
  return out;
}

/** Files of one market with the same units open together (a LOBSTER pair, a symbol's depth dumps). */
function groupsOf(files: readonly L2FileSpec[]): L2FileSpec[][] {
  const groups = new Map<string, L2FileSpec[]>();
  for (const f of files) {
    const key = `${f.market} ${f.tickSize} ${f.lotSize} ${f.symbol ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()];
}

/** A file that carries its own units (Arrow, LOBSTER) must agree with the market's. */
function checkUnits(s: RecordSource, f: L2FileSpec): void {
  const own = s.instruments[f.symbol ?? ''] ?? (Object.keys(s.instruments).length === 1 ? Object.values(s.instruments)[0] : undefined);
  if (own === undefined || (own.tickSize === f.tickSize && own.lotSize === f.lotSize)) return;
  throw new ReplayError(s.name, undefined, undefined, `its prices are in steps of ${own.tickSize} and sizes of ${own.lotSize}, the replay expects ${f.tickSize} / ${f.lotSize}`);
}

/**
 * Normalized records → L2 events: book rows of one message (same source, symbol, receive and
 * exchange time; a reset row starts a new one) become one book event; quotes restate a
 * one-level book where they are the source's book; trades and stats pass as trade and ticker
 * events. Feed delay is receive − exchange time as recorded.
 */
class L2EventBuilder {
  private open: { event: L2BookEvent; source: number; recvNs: bigint; exchNs: bigint; symbol: string } | undefined;

  /** Where events go (the stream points it at each chunk's array). */
  out: L2Event[] = [];

  constructor(
    private readonly sources: readonly RecordSource[],
    private readonly markets: readonly { market: number; symbol: string | undefined; l1: boolean }[],
  ) {}

  add(r: MarketRecord, source: number, tsNs: bigint): void {
    const m = this.markets[source]!;
    if (m.symbol !== undefined && r.symbol !== m.symbol) return;
    if (m.l1 && !isL1Record(r)) return;
    const market = m.market;
    const feedDelayNs = r.recvNs - r.exchNs;
    if (r.kind === 'book') {
      const o = this.open;
      if (o !== undefined && !r.reset && o.source === source && o.recvNs === r.recvNs && o.exchNs === r.exchNs && o.symbol === r.symbol) {
        if (r.side !== undefined) o.event.updates.push({ side: r.side, priceTicks: r.priceTicks, qtyLots: r.qtyLots });
        return;
      }
      this.close();
      const updates: ExternalLevelUpdate[] = r.side === undefined ? [] : [{ side: r.side, priceTicks: r.priceTicks, qtyLots: r.qtyLots }];
      this.open = { event: { kind: 'book', tsNs, feedDelayNs, market, reset: r.reset, updates }, source, recvNs: r.recvNs, exchNs: r.exchNs, symbol: r.symbol };
      return;
    }
    this.close();
    if (r.kind === 'trade') {
      this.out.push({ kind: 'trade', tsNs, feedDelayNs, market, priceTicks: r.priceTicks, qtyLots: r.qtyLots, takerSide: r.side });
    } else if (r.kind === 'quote') {
      if (m.l1) return void this.out.push(touchEvent(r, market, tsNs, feedDelayNs));
      if (this.sources[source]!.quotes !== 'book') return;
      const updates: ExternalLevelUpdate[] = [];
      if (r.bidTicks !== undefined && r.bidQtyLots !== undefined) updates.push({ side: 'B', priceTicks: r.bidTicks, qtyLots: r.bidQtyLots });
      if (r.askTicks !== undefined && r.askQtyLots !== undefined) updates.push({ side: 'S', priceTicks: r.askTicks, qtyLots: r.askQtyLots });
      this.out.push({ kind: 'book', tsNs, feedDelayNs, market, reset: true, updates });
    } else {
      this.out.push({ kind: 'ticker', tsNs, feedDelayNs, market, markPrice: r.markPrice, indexPrice: r.indexPrice, fundingRate: r.fundingRate, fundingTsNs: r.fundingTsNs });
    }
  }

  /** Hands on the book event being gathered, if any. */
  close(): void {
    if (this.open !== undefined) this.out.push(this.open.event);
    this.open = undefined;
  }
}

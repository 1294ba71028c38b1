import type { FactsRecord as MarketRecord } from '../facts/records.ts';
import type { Simulation } from './simulation.ts';
import type { Market } from '../venue/market.ts';

/** How often the full book is sampled into book rows (the touch is sent on every change). */
export const BOOK_SAMPLE_NS = 1_000_000_000n;
/** Levels per side in a book sample: enough for depth within 10 ticks of the mid. */
const SAMPLE_LEVELS = 25;

/**
 * A running simulation as normalized market records, the shape every recording is read in, so
 * `perpsim facts` measures a simulated market with the same code as a capture: the touch as a
 * `quote` on every book change, the book as a `reset` snapshot of its best levels at most once
 * per sim second (when it changed; depth is time-weighted between samples), every trade
 * (taker side), mark records with the index and funding rates as `stats`. Only reads the venue.
 */
export function attachRecordFeed(sim: Simulation, emit: (r: MarketRecord) => void): void {
  const clock = sim.clock;
  const nextSampleNs = new Map<string, bigint>();
  const lastTop = new Map<string, string>();
  sim.venue.subscribe({
    bookChanged: (market) => {
      const t = clock.nowNs;
      const { bid, ask } = market.book.l1();
      const key = `${bid?.priceTicks} ${bid?.qtyLots} ${ask?.priceTicks} ${ask?.qtyLots}`;
      if (lastTop.get(market.symbol) !== key) {
        lastTop.set(market.symbol, key);
        emit({ kind: 'quote', recvNs: t, exchNs: t, symbol: market.symbol, bidTicks: bid?.priceTicks, bidQtyLots: bid?.qtyLots, askTicks: ask?.priceTicks, askQtyLots: ask?.qtyLots });
      }
      if (t >= (nextSampleNs.get(market.symbol) ?? 0n)) {
        nextSampleNs.set(market.symbol, t + BOOK_SAMPLE_NS);
        sampleBook(market, t, emit);
      }
    },
    trade: (trade, market) => {
      const t = clock.nowNs;
      emit({ kind: 'trade', recvNs: t, exchNs: t, symbol: market.symbol, priceTicks: trade.priceTicks, qtyLots: trade.qtyLots });
    },
    markRecorded: (market) => {
      const t = clock.nowNs;
      const tick = market.instrument.tick;
      emit({ kind: 'stats', recvNs: t, exchNs: t, symbol: market.symbol, markPrice: tick.toPrice(market.markTicks), indexPrice: tick.toPrice(market.indexTicks) });
    },
    fundingSettled: (market) => {
      const last = market.fundingHistory[market.fundingHistory.length - 1];
      const t = clock.nowNs;
      if (last !== undefined) emit({ kind: 'stats', recvNs: t, exchNs: t, symbol: market.symbol, fundingRate: last.fundingRate });
    },
  });
}

function sampleBook(market: Market, t: bigint, emit: (r: MarketRecord) => void): void {
  const { bids, asks } = market.book.l2(SAMPLE_LEVELS);
  let first = true;
  const row = (side: 'B' | 'S', priceTicks: number, qtyLots: number): MarketRecord => {
    const r: MarketRecord = { kind: 'book', recvNs: t, exchNs: t, symbol: market.symbol, reset: first, side, priceTicks, qtyLots };
    first = false;
    return r;
  };
  for (const l of bids) emit(row('B', l.priceTicks, l.qtyLots));
  for (const l of asks) emit(row('S', l.priceTicks, l.qtyLots));
  if (first) emit({ kind: 'book', recvNs: t, exchNs: t, symbol: market.symbol, reset: true, side: undefined, priceTicks: 0, qtyLots: 0 });
}

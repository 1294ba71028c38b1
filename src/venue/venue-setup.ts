import { resolveInstrument, type InstrumentConfig } from './instrument.ts';
import { Market } from './market.ts';
import type { Sessions } from './sessions.ts';
import type { Settlement } from './settlement.ts';
import type { VenueState } from './venue-state.ts';
import { VenueBookIndex } from './book-index.ts';

/**
 * How a venue is set up and started, apart from what it does once running: its markets from
 * the configured instruments (`listMarkets`, at construction) and its own processes on the
 * clock (`startProcesses`, at `Venue.start`).
 */

const NS_PER_S = 1_000_000_000n;

export interface VenueConfig {
  instruments: InstrumentConfig[];
  /** Cadence of mark-to-market records, seconds of sim time (default 60). */
  markRecordIntervalSec?: number;
  /** Cadence of the liquidation check, seconds of sim time (default 1). */
  liquidationCheckIntervalSec?: number;
}

/** Lists the configured instruments as the venue's markets, in order. */
export function listMarkets(s: VenueState, instruments: readonly InstrumentConfig[]): void {
  for (const [i, instConfig] of instruments.entries()) {
    const instrument = resolveInstrument(instConfig);
    if (s.marketBySymbol.has(instrument.symbol)) throw new RangeError(`instrument ${instrument.symbol} is listed twice`);
    const market = new Market(i, instrument, s.clock.nowSec, s.clock.nowNanos, new VenueBookIndex(s.orders, i));
    // The mark, band and averages change only when the mark or index moves: the command saves
    // the market's state then, not on every order (see `OrderFlow.afterBookChange`).
    market.beforeAveragesChange = () => {
      s.log.touchMarket(market);
      s.log.touchAverages(market);
    };
    s.markets.push(market);
    s.marketBySymbol.set(instrument.symbol, market);
  }
}

/** The venue's own processes on the clock: instrument sessions, mark records, liquidation checks, stats days, funding. */
export function startProcesses(s: VenueState, config: VenueConfig, sessions: Sessions, settlement: Settlement): void {
  const clock = s.clock;
  sessions.start();
  const markEvery = BigInt(config.markRecordIntervalSec ?? 60) * NS_PER_S;
  const liqEvery = BigInt(config.liquidationCheckIntervalSec ?? 1) * NS_PER_S;
  every(s, markEvery, () => settlement.recordMarks());
  every(s, liqEvery, () => settlement.checkLiquidations());
  // Stats sessions are UTC days: roll at every 00:00 UTC, not every 24 h from the start.
  const day = 86_400n * NS_PER_S;
  every(s, day, () => {
    for (const m of s.markets) {
      s.log.touchTrades(m);
      m.stats.rollTo(clock.nowSec);
    }
  }, (clock.nowNs / day + 1n) * day);
  for (const market of s.markets) settlement.scheduleFunding(market);
}

/** Runs `fn` as a command every `intervalNs`, first at `firstNs` (default: one interval from now). */
function every(s: VenueState, intervalNs: bigint, fn: () => void, firstNs = s.clock.nowNs + intervalNs): void {
  const clock = s.clock;
  const tick = () => {
    s.exclusive(fn);
    clock.scheduleAt(clock.nowNs + intervalNs, tick);
  };
  clock.scheduleAt(firstNs, tick);
}

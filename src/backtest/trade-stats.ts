import type { Money } from '../core/money.ts';
import type { TimeNs } from '../core/types.ts';
import type { FillRecord } from './recorder.ts';

/**
 * Trade statistics of the fills, each defined once here. A **round trip** is one symbol's
 * position from flat (0 lots) back to flat: it opens at the fill that leaves 0, and closes at
 * the fill that returns to 0 or flips the sign (a flip closes one trip and opens the next at the
 * same fill). Its PnL is Σ realized trading PnL − Σ fees of its fills (funding left out, since it
 * is paid on the position, not the trade; a flipping fill's fee goes to the trip it closes).
 * Trips still open at the end are not counted.
 */
export interface RoundTrip {
  symbol: string;
  openNs: TimeNs;
  closeNs: TimeNs;
  /** +1 long, −1 short. */
  direction: 1 | -1;
  pnl: Money;
}

/** The closed round trips of `fills`, in closing order. */
export function roundTrips(fills: readonly FillRecord[]): RoundTrip[] {
  const open = new Map<string, { openNs: TimeNs; direction: 1 | -1; pnl: Money }>();
  const out: RoundTrip[] = [];
  for (const f of fills) {
    const trip = open.get(f.symbol);
    const after = f.positionAfter;
    if (trip !== undefined) {
      trip.pnl += f.realized - f.fee;
      if (after === 0 || Math.sign(after) !== trip.direction) {
        out.push({ symbol: f.symbol, openNs: trip.openNs, closeNs: f.tNs, direction: trip.direction, pnl: trip.pnl });
        open.delete(f.symbol);
        if (after !== 0) open.set(f.symbol, { openNs: f.tNs, direction: after > 0 ? 1 : -1, pnl: 0n });
      }
    } else if (after !== 0) {
      open.set(f.symbol, { openNs: f.tNs, direction: after > 0 ? 1 : -1, pnl: -f.fee + f.realized });
    }
  }
  return out;
}

/** Summary of round trips. Money exact; null where undefined (no trips, no losses). */
export interface TradeStats {
  trips: number;
  wins: number;
  losses: number;
  /** wins / trips (a trip with PnL exactly 0 is neither a win nor a loss). */
  winRate: number | null;
  /** Σ PnL of winning trips / |Σ PnL of losing trips|. */
  profitFactor: number | null;
  /** Mean PnL of the winning trips; of the losing trips (negative). */
  avgWin: Money | null;
  avgLoss: Money | null;
  /** Mean time from open to close, ns. */
  avgHoldingNs: TimeNs | null;
}

/** Counts, win rate, profit factor, average win / loss and holding time of round trips. */
export function tradeStats(trips: readonly RoundTrip[]): TradeStats {
  let wins = 0;
  let losses = 0;
  let won = 0n;
  let lost = 0n;
  let held = 0n;
  for (const t of trips) {
    held += t.closeNs - t.openNs;
    if (t.pnl > 0n) {
      wins++;
      won += t.pnl;
    } else if (t.pnl < 0n) {
      losses++;
      lost += t.pnl;
    }
  }
  const n = trips.length;
  return {
    trips: n,
    wins,
    losses,
    winRate: n === 0 ? null : wins / n,
    profitFactor: lost === 0n ? null : Number((won * 1_000_000n) / -lost) / 1_000_000,
    avgWin: wins === 0 ? null : won / BigInt(wins),
    avgLoss: losses === 0 ? null : lost / BigInt(losses),
    avgHoldingNs: n === 0 ? null : held / BigInt(n),
  };
}

/** Fraction of the run with a long position in any symbol, and with a short one. */
export interface SideExposure {
  long: number;
  short: number;
}

/**
 * Exposure by side: the fraction of [start, end] during which the account was long in at
 * least one symbol, and short in at least one (both can hold at once), exactly from the fills.
 */
export function sideExposure(fills: readonly FillRecord[], startNs: TimeNs, endNs: TimeNs): SideExposure {
  const span = endNs - startNs;
  if (span <= 0n) return { long: 0, short: 0 };
  const pos = new Map<string, number>();
  let longs = 0;
  let shorts = 0;
  let lastNs = startNs;
  let longNs = 0n;
  let shortNs = 0n;
  const advance = (t: TimeNs) => {
    if (longs > 0) longNs += t - lastNs;
    if (shorts > 0) shortNs += t - lastNs;
    lastNs = t;
  };
  for (const f of fills) {
    advance(f.tNs);
    const before = pos.get(f.symbol) ?? 0;
    longs += (f.positionAfter > 0 ? 1 : 0) - (before > 0 ? 1 : 0);
    shorts += (f.positionAfter < 0 ? 1 : 0) - (before < 0 ? 1 : 0);
    pos.set(f.symbol, f.positionAfter);
  }
  advance(endNs);
  const frac = (ns: bigint) => Number((ns * 1_000_000n) / span) / 1_000_000;
  return { long: frac(longNs), short: frac(shortNs) };
}

import { parseMoney } from '../core/money.ts';
import type { Scenario } from '../scenario/schema.ts';
import type { Market } from '../venue/market.ts';
import { buildSimulation } from './build.ts';
import type { Simulation } from './simulation.ts';

const NS_PER_SEC = 1_000_000_000n;

/** How `perpsim impact` trades its metaorders. */
export interface ImpactOptions {
  /** The instrument bought (default: the scenario's first). */
  symbol?: string | undefined;
  /** Metaorder sizes, lots, ascending. */
  sizesLots: readonly number[];
  /** Child order size, lots: one marketable IOC buy of this size every `childEverySec`. */
  childLots: number;
  childEverySec: number;
  /** Sim time before the first metaorder starts. */
  warmupSec: number;
  /** Metaorders start at warmupSec, warmupSec + spacingSec, …: one independent sample each. */
  repeats: number;
  spacingSec: number;
  seed?: number | undefined;
}

/** The impact of one metaorder size, averaged over the repeats. */
export interface ImpactPoint {
  qtyLots: number;
  durationSec: number;
  /**
   * Mean peak impact: the mid when the last child has been sent, against the mid of the same
   * seeded run without the metaorder at that instant, in bps of the mid at the start.
   */
  impactBps: number;
  /**
   * Mean cost: each fill's price against the no-metaorder run's mid at that second,
   * volume-weighted, in bps of the start mid (what the buying itself cost, free of drift).
   */
  shortfallBps: number;
  /** Lots actually bought (IOC children may partly fill). */
  filledLots: number;
}

/**
 * The market's answer to a buyer: for each size, metaorders of child IOC buys are run on the
 * seeded scenario and their impact is measured against the same run without them — the
 * counterfactual a deterministic simulator gives exactly, so the index path and every other
 * actor's draws are the same and the difference is the metaorder's doing. Deterministic: the
 * same scenario, seed and options give the same curve.
 */
export function measureImpact(scenario: Scenario, options: ImpactOptions): ImpactPoint[] {
  const symbol = options.symbol ?? scenario.instruments[0]!.symbol;
  const maxDurationSec = Math.ceil(Math.max(...options.sizesLots) / options.childLots) * options.childEverySec;
  const points = options.sizesLots.map((q) => ({ qtyLots: q, durationSec: Math.ceil(q / options.childLots) * options.childEverySec, impact: 0, shortfall: 0, filled: 0 }));
  for (let r = 0; r < options.repeats; r++) {
    const startSec = options.warmupSec + r * options.spacingSec;
    const base = runBaseline(scenario, options, symbol, startSec, maxDurationSec);
    for (const p of points) {
      const m = runMetaorder(scenario, options, symbol, startSec, p.qtyLots, base.midAt);
      const baseMid = base.midAt.get(p.durationSec)!;
      p.impact += ((m.endMid - baseMid) / base.startMid) * 1e4;
      p.shortfall += m.filledLots > 0 ? (m.excessTicks / m.filledLots / base.startMid) * 1e4 : 0;
      p.filled += m.filledLots;
    }
  }
  const n = options.repeats;
  return points.map((p) => ({ qtyLots: p.qtyLots, durationSec: p.durationSec, impactBps: p.impact / n, shortfallBps: p.shortfall / n, filledLots: p.filled / n }));
}

/**
 * The log-log slope of impact against size by least squares over the points with positive
 * impact: 1 is linear, 0.5 square-root; below 1 the curve is concave. NaN with fewer than 2.
 */
export function impactExponent(points: readonly ImpactPoint[]): number {
  const xy = points.filter((p) => p.impactBps > 0).map((p) => [Math.log(p.qtyLots), Math.log(p.impactBps)] as const);
  if (xy.length < 2) return Number.NaN;
  const mx = xy.reduce((s, [x]) => s + x, 0) / xy.length;
  const my = xy.reduce((s, [, y]) => s + y, 0) / xy.length;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of xy) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) * (x - mx);
  }
  return sxx > 0 ? sxy / sxx : Number.NaN;
}

function startSim(scenario: Scenario, options: ImpactOptions, symbol: string, endSec: number): { sim: Simulation; market: Market } {
  const durationNs = BigInt(endSec) * NS_PER_SEC;
  const sim = buildSimulation(scenario, options.seed === undefined ? { durationNs } : { seed: options.seed, durationNs });
  const market = sim.venue.market(symbol);
  if (market === undefined) throw new RangeError(`impact: the scenario has no instrument ${symbol}`);
  return { sim, market };
}

function midOf(market: Market): number {
  const bid = market.book.bestBidTicks();
  const ask = market.book.bestAskTicks();
  return bid === undefined || ask === undefined ? market.markTicks : (bid + ask) / 2;
}

/** The run without a metaorder: the mid at the start and at each whole second after it. */
function runBaseline(scenario: Scenario, options: ImpactOptions, symbol: string, startSec: number, durationSec: number) {
  const { sim, market } = startSim(scenario, options, symbol, startSec + durationSec);
  sim.runUntil(sim.startNs + BigInt(startSec) * NS_PER_SEC);
  const startMid = midOf(market);
  const midAt = new Map<number, number>([[0, startMid]]);
  for (let s = 1; s <= durationSec; s++) {
    sim.runUntil(sim.startNs + BigInt(startSec + s) * NS_PER_SEC);
    midAt.set(s, midOf(market));
  }
  return { startMid, midAt };
}

/**
 * The run with a metaorder of `qtyLots`: children at start, start + every, …; the mid after the
 * last one's interval, and Σ lots × (fill price − the baseline's mid at the child's second).
 */
function runMetaorder(scenario: Scenario, options: ImpactOptions, symbol: string, startSec: number, qtyLots: number, baseMidAt: ReadonlyMap<number, number>) {
  const children = Math.ceil(qtyLots / options.childLots);
  const endSec = startSec + children * options.childEverySec;
  const { sim, market } = startSim(scenario, options, symbol, endSec);
  const buyer = sim.venue.addUser('impact-buyer', parseMoney('1000000000000'));
  let filledLots = 0;
  let excessTicks = 0;
  let referenceMid = 0; // the baseline mid at the child being sent (its fills arrive during the call)
  sim.venue.subscribe({
    trade: (t) => {
      if (t.takerUserId !== buyer.id) return;
      filledLots += t.qtyLots;
      excessTicks += t.qtyLots * (t.priceTicks - referenceMid);
    },
  });
  let left = qtyLots;
  for (let i = 0; i < children; i++) {
    const lots = Math.min(options.childLots, left);
    left -= lots;
    const offsetSec = i * options.childEverySec;
    sim.clock.scheduleAt(sim.startNs + BigInt(startSec + offsetSec) * NS_PER_SEC, () => {
      if (market.state !== 'OPEN') return;
      referenceMid = baseMidAt.get(offsetSec)!;
      sim.venue.placeOrderTicks(buyer, market, 'B', market.bandEdgeTicks('B'), lots, 'IOC');
    });
  }
  sim.runUntil(sim.startNs + BigInt(endSec) * NS_PER_SEC);
  return { endMid: midOf(market), filledLots, excessTicks };
}

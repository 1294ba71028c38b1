import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { setFaultHook } from '../../src/venue/fault-points.ts';
import { setNarrowFillUndo } from '../../src/venue/fill-undo.ts';
import { expectTwinsAgree, expectTwinsEndAlike, outcomeFailingAt } from './fault-outcome.ts';
import { type Cmd, cmdArb, make, sweepStreamArb } from './fill-streams.ts';

/**
 * A usual fill's account and position are saved for the undo as numbers alone (fill-undo.ts:
 * `U_FILL`, per fill), the others with their Money (`saveAccount`, `savePosition`, once per
 * command). The same command streams through a venue saving usual fills narrowly and a twin
 * saving every fill whole give the same answers, feeds, trades, money, positions and state hash
 * after every command; and a command failed at its k-th fault point leaves both alike, and as a twin that never
 * saw it, and both run on alike. The
 * streams fill often: partial fills, both sides of one account, positions flipping through zero,
 * self-trade prevention, liquidations and funding between commands, a market at ~2^40 ticks whose
 * fills pass 2^53 (the Money path) and a micro-tick market whose fees have no whole factor.
 */

afterEach(() => {
  setFaultHook(undefined);
  setNarrowFillUndo(true);
});

/**
 * Runs `cmds` through a venue saving usual fills as numbers, a twin saving them whole and a venue
 * that never sees command `victim`, which fails on the first two at its fault point `step`:
 * equal answers (and states after every command when `observeEach`), equal outcomes of the
 * victim, then equal states, and the state of the venue that never saw it when it failed; equal
 * feeds and trades at the end. Returns the victim's outcome.
 */
function failOneOf(cmds: readonly Cmd[], victim: number, step: number, observeEach: boolean): { steps: string[]; failed: boolean } {
  const narrow = make(true);
  const whole = make(false);
  const never = make(true);
  let outcome = { steps: [] as string[], failed: false };
  for (const [i, c] of cmds.entries()) {
    if (i !== victim) {
      expect(narrow.apply(c)).toEqual(whole.apply(c));
      never.apply(c);
      if (observeEach) expect(narrow.observed()).toEqual(whole.observed());
      continue;
    }
    const run = (twin: ReturnType<typeof make>) => outcomeFailingAt(step, () => twin.apply(c));
    outcome = run(narrow);
    expect(outcome).toEqual(run(whole));
    if (!outcome.failed) never.apply(c);
    expect(narrow.observed()).toEqual(whole.observed());
    expect({ ...narrow.observed(), feeds: 0 }).toEqual({ ...never.observed(), feeds: 0 });
  }
  expectTwinsEndAlike(narrow, whole);
  return outcome;
}

describe('a fill saved for the undo as numbers', () => {
  it('gives the answers, feeds, trades, money, positions and state hash of fills saved whole, after every command (120 streams)', () => {
    let trades = 0;
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 20, maxLength: 70 }), (cmds) => {
        const narrow = make(true);
        const whole = make(false);
        expectTwinsAgree(narrow, whole, cmds);
        trades += narrow.feeds.trades.length;
      }),
      { numRuns: 120, seed: 14 },
    );
    expect(trades).toBeGreaterThan(300);
  }, 120_000);

  it('leaves a command failed at its k-th fault point as fills saved whole leave it and as a venue that never saw it, and both run on alike (400 streams)', () => {
    const failedAt = new Set<string>();
    fc.assert(
      fc.property(fc.array(cmdArb, { minLength: 10, maxLength: 40 }), fc.nat(), fc.nat(12), (cmds, pick, step) => {
        // A place late in the stream (one that may trade, with positions and pending counters
        // grown by then), failed at a step up to the fills of its first trades.
        const places = cmds.flatMap((c, i) => (c.kind === 'place' && i >= cmds.length / 2 ? [i] : []));
        const victim = places.length === 0 ? cmds.length - 1 : places[pick % places.length]!;
        const a = failOneOf(cmds, victim, step, false);
        if (a.failed) failedAt.add(a.steps[step]!);
      }),
      { numRuns: 400, seed: 41 },
    );
    // Failures came inside both fills of a trade and after them.
    for (const s of ['fill.position', 'fill.cash', 'fill.order', 'trade.maker', 'trade.taker', 'place.done']) expect(failedAt).toContain(s);
  }, 120_000);

  it('leaves a sweep failed at any of its fault points, its taker saved once for all its fills, as fills saved whole leave it and as a venue that never saw it (300 streams)', () => {
    const failedAt = new Set<string>();
    let deepest = 0;
    fc.assert(
      fc.property(sweepStreamArb, fc.nat(), fc.nat(70), (cmds, pick, step) => {
        const sweeps = cmds.flatMap((c, i) => (c.kind === 'place' && c.sweep === true ? [i] : []));
        const victim = sweeps.length === 0 ? cmds.length - 1 : sweeps[pick % sweeps.length]!;
        const a = failOneOf(cmds, victim, step, true);
        if (!a.failed) return;
        failedAt.add(a.steps[step]!);
        // The fault came after the taker's second fill: its later fills wrote no copy of their own.
        if (a.steps.slice(0, step).filter((x) => x === 'trade.taker').length >= 2) deepest++;
      }),
      { numRuns: 300, seed: 15 },
    );
    for (const s of ['fill.position', 'fill.cash', 'fill.order', 'trade.maker', 'trade.taker', 'trade.candles', 'trade.stats', 'place.done']) expect(failedAt).toContain(s);
    expect(deepest).toBeGreaterThan(30);
  }, 120_000);

  it("counts each open order and its remaining lots in its account's row after sweeps, fills and cancels, as the open orders themselves say (150 streams)", () => {
    let filledMakers = 0;
    fc.assert(
      fc.property(sweepStreamArb, (cmds) => {
        const twin = make(true);
        const v = twin.t.venue;
        for (const c of cmds) {
          twin.apply(c);
          for (const a of v.accounts) {
            const open = v.openOrders(a);
            for (const m of v.markets) {
              const here = open.filter((o) => o.market === m);
              expect([a.openCountIn(m), a.openLotsIn(m)]).toEqual([here.length, here.reduce((sum, o) => sum + o.qtyLots - o.filledLots, 0)]);
            }
          }
        }
        filledMakers += twin.feeds.all.filter((f) => f.feed.t === 'f' && f.feed.xs?.agg === false).length;
      }),
      { numRuns: 150, seed: 16 },
    );
    expect(filledMakers).toBeGreaterThan(200);
  }, 120_000);
});

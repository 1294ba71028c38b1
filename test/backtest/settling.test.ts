import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillsCsv } from '../../src/backtest/report.ts';
import { runBacktest, type BacktestResult } from '../../src/backtest/runner.ts';
import { microtaskCheckpoint } from '../../src/backtest/microtask-checkpoint.ts';
import { drainMicrotasks, type Settling } from '../../src/backtest/settling.ts';
import { TickSize } from '../../src/core/price.ts';
import { loadScenario } from '../../src/scenario/load.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';
import type { Strategy } from '../../src/strategy/strategy.ts';
import type { BookUpdate } from '../../src/wire/market-data.ts';
import type { OrderFeed } from '../../src/wire/order.ts';
import marketMaker, { paramsSchema } from '../../examples/market-maker.ts';

// The runner's settling (one microtask drain, only after events that ran strategy code or
// settled a port promise) against the plainest rule: a macrotask after every event. Random
// async strategies (chains of awaits, Promise.all, timers awaited as promises, nested and
// fire-and-forget requests, callbacks that return promises or not) must see the same things
// at the same sim times and end with the same fills, account and venue state.

const SYMBOL = 'BTCUSD-PERP';
const S = 1_000_000_000n;

type Step =
  | { k: 'insert'; side: 'B' | 'S'; offsetTicks: number; ioc: boolean }
  | { k: 'cancelLast' }
  | { k: 'cancelAll' }
  | { k: 'open' }
  | { k: 'ticks'; n: number }
  | { k: 'sleep'; ms: number }
  | { k: 'all'; parts: Step[][] }
  | { k: 'spawn'; part: Step[] }
  | { k: 'then'; part: Step[] };

const leaf: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ k: fc.constant('insert' as const), side: fc.constantFrom('B' as const, 'S' as const), offsetTicks: fc.integer({ min: -3, max: 12 }), ioc: fc.boolean() }),
  fc.constant({ k: 'cancelLast' as const }),
  fc.constant({ k: 'cancelAll' as const }),
  fc.constant({ k: 'open' as const }),
  fc.record({ k: fc.constant('ticks' as const), n: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ k: fc.constant('sleep' as const), ms: fc.integer({ min: 0, max: 40 }) }),
);
const program: fc.Arbitrary<Step[]> = fc.letrec<{ steps: Step[]; step: Step }>((tie) => ({
  steps: fc.array(tie('step'), { maxLength: 4 }),
  step: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ k: fc.constant('all' as const), parts: fc.array(tie('steps'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ k: fc.constant('spawn' as const), part: tie('steps') }),
    fc.record({ k: fc.constant('then' as const), part: tie('steps') }),
  ),
})).steps;

interface Plan {
  start: Step[];
  onBook: Step[];
  /** Every how many books `onBook` runs its program. */
  bookEvery: number;
  onFeed: Step[];
  /** Whether the callbacks return their program's promise (tracked) or drop it (fire and forget). */
  returnPromises: boolean;
}

const plans: fc.Arbitrary<Plan> = fc.record({
  start: program,
  onBook: program,
  bookEvery: fc.integer({ min: 1, max: 6 }),
  onFeed: program,
  returnPromises: fc.boolean(),
});

/** A strategy that runs `plan`, logging what it sees with the sim time it sees it at. */
function strategyOf(plan: Plan, log: string[]): Strategy {
  let port!: ExchangePort;
  const tick = new TickSize('0.5');
  let bid: number | undefined;
  let ask: number | undefined;
  let lastId: string | undefined;
  let books = 0;
  /** Programs started by callbacks, bounded so a run stays small. */
  let budget = 60;
  const note = (what: string): void => void log.push(`${port.now()} ${what}`);
  const attempt = async (what: string, call: () => Promise<unknown>): Promise<void> => {
    try {
      note(`${what} → ${JSON.stringify(await call())}`);
    } catch (e) {
      note(`${what} ✗ ${(e as Error).message}`);
    }
  };
  const run = async (steps: Step[], path: string): Promise<void> => {
    for (let i = 0; i < steps.length; i++) {
      const s = steps[i]!;
      const at = `${path}.${i}`;
      switch (s.k) {
        case 'insert': {
          if (bid === undefined || ask === undefined) {
            note(`${at} no book`);
            break;
          }
          const priceTicks = s.side === 'B' ? bid - s.offsetTicks : ask + s.offsetTicks;
          const order = { symbol: SYMBOL, price: tick.toPrice(priceTicks), quantity: 1, side: s.side, timeInForce: s.ioc ? ('IOC' as const) : ('GTC' as const) };
          await attempt(`${at} insert`, async () => (lastId = await port.insertOrder(order)));
          break;
        }
        case 'cancelLast':
          if (lastId !== undefined) await attempt(`${at} cancel`, () => port.cancelOrder(lastId!));
          break;
        case 'cancelAll':
          await attempt(`${at} cancelAll`, async () => (await port.cancelAll()).successful.length);
          break;
        case 'open':
          await attempt(`${at} open`, async () => (await port.openOrders()).length);
          break;
        case 'ticks':
          for (let j = 0; j < s.n; j++) await Promise.resolve();
          note(`${at} ticks`);
          break;
        case 'sleep':
          await new Promise<void>((resolve) => port.setTimer(s.ms * 1_000_000, resolve));
          note(`${at} slept`);
          break;
        case 'all':
          await Promise.all(s.parts.map((part, j) => run(part, `${at}/${j}`)));
          note(`${at} all`);
          break;
        case 'spawn':
          void run(s.part, `${at}~`);
          break;
        case 'then':
          void Promise.resolve().then(() => run(s.part, `${at}^`));
          break;
      }
    }
  };
  const callback = (steps: Step[], path: string): Promise<void> | undefined => {
    if (steps.length === 0 || budget <= 0) return undefined;
    budget--;
    const p = run(steps, path);
    return plan.returnPromises ? p : undefined;
  };
  return {
    async onStart(p) {
      port = p;
      await port.subscribe(SYMBOL, 'LEVEL_1');
      await run(plan.start, 'start');
    },
    onBook(book: BookUpdate) {
      bid = book.b[0] === undefined ? undefined : tick.toTicks(book.b[0].p);
      ask = book.a[0] === undefined ? undefined : tick.toTicks(book.a[0].p);
      if (++books % plan.bookEvery === 0) return callback(plan.onBook, `book${books}`);
    },
    onOrderFeed(feed: OrderFeed) {
      note(`feed ${feed.t} ${feed.o?.oid ?? ''}`);
      return callback(plan.onFeed, `feed${log.length}`);
    },
  };
}

async function backtest(plan: Plan, settling: Settling): Promise<{ log: string[]; result: BacktestResult }> {
  const log: string[] = [];
  const result = await runBacktest(strategyOf(plan, log), { scenario: loadScenario('default'), seed: 3, durationNs: 20n * S, stopGraceNs: S, settling });
  return { log, result };
}

describe('the runner settling a strategy between events', () => {
  it('drains every queued microtask and every one those queue, however long the chain', async () => {
    await null; // run from a microtask, as the runner does
    const reached: number[] = [];
    const chain = async (depth: number): Promise<void> => {
      for (let i = 1; i <= depth; i++) {
        await null;
        reached[0] = i;
      }
      await Promise.all([Promise.resolve().then(() => reached.push(depth))]);
    };
    void chain(500);
    void Promise.resolve().then(() => void chain(20));
    await null;
    expect(reached[0]).toBeLessThan(500); // a microtask turn alone does not reach the end
    await drainMicrotasks();
    expect(reached).toEqual([500, 20, 500]);
  });

  it('offers a synchronous checkpoint under this Node, which from a macrotask runs every chain and tick to the end', async () => {
    // The drain loop uses it when it is there: without it, the properties below would test the tick per drain only.
    expect(microtaskCheckpoint).toBeTypeOf('function');
    const reached: string[] = [];
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const chain = async (depth: number): Promise<void> => {
          for (let i = 0; i < depth; i++) await null;
          reached.push(`chain ${depth}`);
        };
        void chain(500);
        process.nextTick(() => void chain(3).then(() => reached.push('after the tick')));
        microtaskCheckpoint!();
        reached.push('returned');
        resolve();
      }),
    );
    // Ticks pending at the call run before the microtasks (Node's order in `processTicksAndRejections`);
    // what matters to the runner is that everything ran before it returned.
    expect(reached).toEqual(['chain 3', 'after the tick', 'chain 500', 'returned']);
  });

  it('runs random async strategies exactly as a macrotask after every event would', async () => {
    let traded = 0;
    await fc.assert(
      fc.asyncProperty(plans, async (plan) => {
        const fast = await backtest(plan, 'drain');
        const reference = await backtest(plan, 'every-event');
        const ticked = await backtest(plan, 'drain-tick');
        expect(ticked.log).toEqual(reference.log);
        expect(ticked.result.stateHash).toBe(reference.result.stateHash);
        expect(fast.log).toEqual(reference.log);
        expect(fillsCsv(fast.result)).toBe(fillsCsv(reference.result));
        expect(fast.result.final).toEqual(reference.result.final);
        expect(fast.result.stateHash).toBe(reference.result.stateHash);
        expect(fast.result.events).toBe(reference.result.events);
        if (fast.result.fills.length > 0) traded++;
      }),
      { numRuns: 25 },
    );
    expect(traded).toBeGreaterThan(0); // the strategies did trade, so fills were compared
  }, 120_000);

  it('runs the market-maker example (quotes started and not awaited, cancels awaited before inserts) as a macrotask after every event would', async () => {
    const run = (settling: Settling) => runBacktest(marketMaker(paramsSchema.parse({ halfSpreadTicks: 2 })), { scenario: loadScenario('default'), seed: 5, durationNs: 90n * S, stopGraceNs: S, settling });
    const fast = await run('drain');
    const reference = await run('every-event');
    const ticked = await run('drain-tick');
    expect(fillsCsv(ticked)).toBe(fillsCsv(reference));
    expect(ticked.stateHash).toBe(reference.stateHash);
    expect(fast.fills.length).toBeGreaterThan(5);
    expect(fillsCsv(fast)).toBe(fillsCsv(reference));
    expect(fast.orders).toEqual(reference.orders);
    expect(fast.final).toEqual(reference.final);
    expect(fast.stateHash).toBe(reference.stateHash);
    expect(fast.events).toBe(reference.events);
  }, 60_000);
});

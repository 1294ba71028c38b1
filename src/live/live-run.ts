import { parseMoney, type Money } from '../core/money.ts';
import type { TimeNs } from '../core/types.ts';
import type { BacktestResult } from '../backtest/runner.ts';
import { rejectReasonOf, type EquitySample, type FillRecord, type OrderCounts } from '../backtest/recorder.ts';
import type { ExchangePort } from '../strategy/exchange-port.ts';
import { attachStrategy, type Strategy } from '../strategy/strategy.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { PositionRiskSnapshot } from '../wire/risk.ts';
import { parseTimestamp } from '../core/time.ts';
import { TickSize } from '../core/price.ts';
import { MARKOUT_HORIZONS_S } from '../backtest/markouts.ts';

/** How a live run goes. */
export interface LiveOptions {
  /** Resolves when the run should end (Ctrl-C, --duration): then cancel all, onStop, final snapshot. */
  stop: Promise<void>;
  /** Wall ms between equity samples (risk snapshots); default 60,000. */
  sampleIntervalMs?: number;
  /** Named in the report where a backtest names its scenario (e.g. `live http://host:8080`). */
  source: string;
}

/**
 * Runs a strategy on any ExchangePort speaking the interface (the wire client against perpsim
 * or a live venue) until `stop`, then cancels all its orders, calls onStop and returns what a
 * backtest returns, so the same report.json / report.html come out.
 *
 * What the wire cannot tell is left out rather than guessed: there is no state hash or event
 * count (empty / 0), fills carry no per-fill fee, realized PnL (0), touch or markouts (null),
 * touch times are 0, and the final trading PnL is the exchange's own realized figure (net of
 * fees and funding, which stay 0 here).
 */
export async function runLive(strategy: Strategy, port: ExchangePort, options: LiveOptions): Promise<BacktestResult> {
  const instruments = await port.instruments();
  const multiplier = new Map(instruments.map((i) => [i.symbol, BigInt(i.multiplier)]));
  const ticks = new Map(instruments.map((i) => [i.symbol, new TickSize(i.tick_size)]));
  const first = await port.riskSnapshot();
  const startNs = snapshotNs(first, port.now());
  const symbols: string[] = [];
  const samples: EquitySample[] = [];
  const fills: FillRecord[] = [];
  const orders: OrderCounts = { submitted: 0, accepted: 0, rejected: 0, acceptedLots: 0, canceled: 0, rejectReasons: {} };
  const positionLots = new Map<string, number>();
  const terminal = new Set<string>();
  const record = (feed: OrderFeed) => {
    if (feed.o !== undefined && feed.o.rq === 0) terminal.add(feed.o.oid);
    countFeed(feed, orders, fills, positionLots, multiplier, ticks, symbols);
  };
  const detach = port.onOrderFeed(record);
  const sample = (s: PositionRiskSnapshot) => samples.push(sampleOf(s, snapshotNs(s, port.now()), symbols, multiplier));
  sample(first);

  const stopStrategy = await attachStrategy(strategy, port);
  const timer = setInterval(() => void port.riskSnapshot().then(sample, () => undefined), options.sampleIntervalMs ?? 60_000);
  try {
    await options.stop;
  } finally {
    clearInterval(timer);
  }
  const { successful } = await port.cancelAll();
  await feedsOf(successful, terminal, 2000); // the cancel feeds come on the socket, after the REST answer
  await stopStrategy();
  detach();
  const last = await port.riskSnapshot();
  sample(last);
  const endNs = samples.at(-1)!.tNs;
  const cash = parseMoney(last.cash_balance);
  const unrealized = parseMoney(last.total_unrealized_pnl);
  return {
    scenario: options.source,
    seed: 0,
    startNs,
    endNs,
    sampleIntervalNs: BigInt(options.sampleIntervalMs ?? 60_000) * 1_000_000n,
    username: port.username,
    startingCash: parseMoney(first.cash_balance),
    symbols,
    fills,
    funding: [],
    samples,
    orders,
    liquidations: fills.filter((f) => f.liquidation).length,
    final: { tradingPnl: parseMoney(last.total_realized_pnl), fees: 0n, funding: 0n, unrealized, cash, equity: parseMoney(last.total_equity) },
    stateHash: '',
    events: 0,
    touchTimes: symbols.map(() => ({ bidNs: 0n, askNs: 0n, bothNs: 0n })),
  };
}

/** Waits until every order in `ids` has reached `terminal`, polling, for at most `limitMs` of wall time. */
async function feedsOf(ids: readonly string[], terminal: ReadonlySet<string>, limitMs: number): Promise<void> {
  for (let waited = 0; waited < limitMs && !ids.every((id) => terminal.has(id)); waited += 10) await new Promise((r) => setTimeout(r, 10));
}

function snapshotNs(s: PositionRiskSnapshot, fallback: TimeNs): TimeNs {
  return parseTimestamp(s.timestamp) ?? fallback;
}

/** Counts one of the account's order feeds into the report's orders and fills (exported for its test). */
export function countFeed(feed: OrderFeed, orders: OrderCounts, fills: FillRecord[], positionLots: Map<string, number>, multiplier: Map<string, bigint>, ticks: Map<string, TickSize>, symbols: string[]): void {
  if (feed.t === 'n' || feed.t === 'j') orders.submitted++;
  if (feed.t === 'n') {
    orders.accepted++;
    orders.acceptedLots += feed.o?.q ?? 0;
  }
  if (feed.t === 'j') {
    orders.rejected++;
    const reason = rejectReasonOf(feed);
    orders.rejectReasons[reason] = (orders.rejectReasons[reason] ?? 0) + 1;
  }
  if (feed.t === 'c') orders.canceled++;
  if ((feed.t !== 'p' && feed.t !== 'f') || feed.xs === undefined) return;
  const xs = feed.xs;
  if (!symbols.includes(xs.s)) symbols.push(xs.s);
  const position = (positionLots.get(xs.s) ?? 0) + (xs.d === 'B' ? xs.q : -xs.q);
  positionLots.set(xs.s, position);
  fills.push({
    tNs: BigInt(feed.ts) * 1_000_000_000n + BigInt(feed.tn),
    symbol: xs.s,
    orderId: feed.o?.oid ?? '',
    tradeId: xs.tid,
    side: xs.d,
    price: xs.p,
    priceTicks: ticks.get(xs.s)?.toTicks(xs.p) ?? 0,
    // The touch and the markouts need the book around the fill, which a live run does not keep.
    bid: null,
    ask: null,
    midAfterX2: MARKOUT_HORIZONS_S.map(() => null),
    qty: xs.q,
    notional: (parseMoney(xs.p) * BigInt(xs.q) * (multiplier.get(xs.s) ?? 1n)),
    fee: 0n,
    realized: 0n,
    maker: !xs.agg,
    liquidation: feed.o?.liq ?? false,
    positionAfter: position,
  });
}

function sampleOf(s: PositionRiskSnapshot, tNs: TimeNs, symbols: string[], multiplier: Map<string, bigint>): EquitySample {
  for (const p of s.positions) if (!symbols.includes(p.symbol)) symbols.push(p.symbol);
  const bySymbol = new Map(s.positions.map((p) => [p.symbol, p]));
  let gross: Money = 0n;
  const positions = symbols.map((symbol) => {
    const p = bySymbol.get(symbol);
    const lots = p === undefined ? 0 : Number(p.net_quantity);
    if (p !== undefined) gross += (parseMoney(p.mark_price) * BigInt(Math.abs(lots)) * (multiplier.get(symbol) ?? 1n));
    return lots;
  });
  return {
    tNs,
    equity: parseMoney(s.total_equity),
    cash: parseMoney(s.cash_balance),
    unrealized: parseMoney(s.total_unrealized_pnl),
    positions,
    marks: symbols.map((symbol) => bySymbol.get(symbol)?.mark_price ?? '0'),
    bids: symbols.map(() => null),
    asks: symbols.map(() => null),
    grossNotional: gross,
  };
}

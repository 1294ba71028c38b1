import { parseMoney } from '../core/money.ts';
import type { RandomStreams } from '../random/random-stream.ts';
import { scenarioSchema } from '../scenario/schema.ts';
import type { Account } from '../venue/account.ts';
import type { Market } from '../venue/market.ts';
import type { Venue } from '../venue/venue.ts';
import { Simulation } from './simulation.ts';

/** What a demo run did, for printing and tests. */
export interface DemoResult {
  orders: number;
  trades: number;
  volumeLots: number;
  feeds: Record<string, number>;
  markets: { symbol: string; last: string; mark: string; bid: string; ask: string; depth: number }[];
  fundingSettlements: number;
  stateHash: string;
}

/**
 * A short, fully seeded market: random traders post and take liquidity on two perps around a
 * random-walk index for `durationSec` of simulated time. It exercises the clock, book, venue,
 * fees, margin, marks and funding together; `npm start` runs it until the server exists.
 */
export function runDemo(seed = 42, durationSec = 3600 * 9): DemoResult {
  const sim = new Simulation(
    scenarioSchema.parse({
      name: 'demo',
      seed,
      start: '2026-01-01T00:00:00Z',
      duration: `${durationSec}s`,
      instruments: [
        { symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' },
        { symbol: 'ETHUSD-PERP', tickSize: '0.01', indexPrice: '3000' },
      ],
    }),
  );
  const { clock, venue, streams } = sim;
  const feeds: Record<string, number> = {};
  let trades = 0;
  let volumeLots = 0;
  venue.subscribe({
    orderFeed: (_user, feed) => void (feeds[feed.t] = (feeds[feed.t] ?? 0) + 1, feed.r && (feeds["r:" + feed.r] = (feeds["r:" + feed.r] ?? 0) + 1)),
    trade: (t) => {
      trades++;
      volumeLots += t.qtyLots;
    },
  });
  const traders: Account[] = [];
  for (let i = 0; i < 8; i++) traders.push(venue.addUser(`trader${i}`, parseMoney('10000000')));
  sim.start();

  let orders = 0;
  const scheduleTrader = (account: Account) => {
    const rng = streams.get(account.username);
    clock.scheduleIn(Math.round(rng.exponential(2e9)), () => {
      const market = rng.pick(venue.markets);
      actRandomly(venue, account, market, rng);
      orders++;
      scheduleTrader(account);
    });
  };
  traders.forEach(scheduleTrader);
  for (const market of venue.markets) {
    const rng = streams.get(`index:${market.symbol}`);
    const step = () => {
      const moveTicks = Math.round(rng.normal(0, market.indexTicks * 0.0002));
      venue.setIndexPrice(market, Math.max(1, market.indexTicks + moveTicks));
      clock.scheduleIn(1e9, step);
    };
    clock.scheduleIn(1e9, step);
  }
  sim.runToEnd();

  return {
    orders,
    trades,
    volumeLots,
    feeds,
    fundingSettlements: venue.markets.reduce((n, m) => n + m.fundingHistory.length, 0),
    markets: venue.markets.map((m) => {
      const tick = m.instrument.tick;
      const l1 = m.book.l1();
      const last = m.stats.snapshot().lastTicks;
      return {
        symbol: m.symbol,
        last: last === undefined ? '-' : tick.toPrice(last),
        mark: tick.toPrice(m.markTicks),
        bid: l1.bid ? `${l1.bid.qtyLots} @ ${tick.toPrice(l1.bid.priceTicks)}` : '-',
        ask: l1.ask ? `${l1.ask.qtyLots} @ ${tick.toPrice(l1.ask.priceTicks)}` : '-',
        depth: m.book.orderCount,
      };
    }),
    stateHash: venue.stateHash(),
  };
}

/** One random action: mostly passive quotes near the index, some takers, some cancels. */
function actRandomly(venue: Venue, account: Account, market: Market, rng: ReturnType<RandomStreams['get']>): void {
  const open = venue.openOrders(account);
  const r = rng.next();
  if (r < 0.25 && open.length > 0) {
    venue.cancelOrder(account, rng.pick(open).id);
    return;
  }
  const side = rng.chance(0.5) ? 'B' : 'S';
  const spreadTicks = Math.max(1, Math.round(market.indexTicks * 0.0001));
  const offset = r < 0.4 ? -spreadTicks * 2 : rng.int(1, 20) * spreadTicks;
  const priceTicks = side === 'B' ? market.indexTicks - offset : market.indexTicks + offset;
  const qty = rng.int(1, 5);
  venue.placeOrderTicks(account, market, side, Math.max(1, priceTicks), qty, r < 0.4 ? 'IOC' : 'GTC');
}

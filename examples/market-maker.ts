/**
 * A market maker with inventory skew: quotes one post-only bid and ask around the market's
 * mid (read from the LEVEL_2 book with its own quotes taken out, so it never chases itself),
 * shifted against its inventory (long → both quotes lower, so it sells more readily than it
 * buys), and stops quoting the side that would push inventory past its limit.
 *
 *   npx perpsim backtest examples/market-maker.ts --scenario default --seed 7 --duration 1h
 *   npx perpsim backtest examples/market-maker.ts --params '{"halfSpreadTicks":2,"skewTicksPerLot":1}'
 */
import { z } from 'zod';
import type { TickSize } from '../src/core/price.ts';
import type { Side } from '../src/core/types.ts';
import { sideTicks } from '../src/strategy/book-ticks.ts';
import type { ExchangePort } from '../src/strategy/exchange-port.ts';
import type { BookUpdate } from '../src/wire/market-data.ts';
import type { Strategy } from '../src/strategy/strategy.ts';
import type { OrderFeed } from '../src/wire/order.ts';
import { fillDelta, midTicks, tickSizeOf, type Touch } from './lib/market.ts';

export const paramsSchema = z.strictObject({
  symbol: z.string().default('BTCUSD-PERP'),
  /** Lots per quote. */
  sizeLots: z.int().positive().default(1),
  /** Distance of each quote from the skewed fair price, ticks. */
  halfSpreadTicks: z.number().positive().default(4),
  /** Fair-price shift per lot of inventory, ticks. */
  skewTicksPerLot: z.number().nonnegative().default(0.5),
  /** No quote on the side that would take |inventory| past this. */
  maxInventoryLots: z.int().positive().default(10),
  /** Requote at most this often, ms of exchange time. */
  requoteMs: z.int().positive().default(50),
  /**
   * Levels a side of the LEVEL_2 subscription (default: the whole book). It reads only the
   * first levels beyond its own quote, but every update requotes: with fewer levels, changes
   * deeper in the book send no update and it requotes less often (a different run).
   */
  bookDepth: z.int().positive().optional(),
});
export type MarketMakerParams = z.infer<typeof paramsSchema>;

/** Whether a feed of this type ends an order (filled, canceled, expired, rejected, done for the day). */
function ends(t: OrderFeed['t']): boolean {
  return t === 'f' || t === 'c' || t === 'x' || t === 'j' || t === 'd';
}

interface Quote {
  id?: string;
  priceTicks: number;
}

class InventorySkewMaker implements Strategy {
  private port!: ExchangePort;
  private tick!: TickSize;
  /** Others' best bid and ask in ticks, updated in place by each book update. */
  private readonly touch: Touch = {};
  private inventory = 0;
  /**
   * The resting (or in-flight) quote per side: two fields read through `quoteOf`, not a record
   * indexed by the side (a property read by a key that varies is V8's slowest, ~100
   * instructions, and this runs at every book update, feed and timer).
   */
  private bidQuote: Quote | undefined = undefined;
  private askQuote: Quote | undefined = undefined;
  private timerArmed = false;
  /** Orders that ended before their insert was acknowledged (feeds overtake the response). */
  private readonly endedEarly = new Set<string>();

  constructor(private readonly p: MarketMakerParams) {}

  async onStart(port: ExchangePort): Promise<void> {
    this.port = port;
    this.tick = await tickSizeOf(port, this.p.symbol);
    await port.subscribe(this.p.symbol, 'LEVEL_2', this.p.bookDepth === undefined ? undefined : { depth: this.p.bookDepth });
  }

  async onStop(port: ExchangePort): Promise<void> {
    await port.cancelAll();
  }

  onBook(book: BookUpdate): void {
    if (book.s !== this.p.symbol || this.tick === undefined) return;
    this.touch.bid = this.othersBest(book.b, 'B');
    this.touch.ask = this.othersBest(book.a, 'S');
    this.schedule();
  }

  /**
   * Best price of a book side once this strategy's own quote is taken out of it. Reads the
   * side's ticks where the port offers them (in a backtest), else parses the price text.
   */
  private othersBest(levels: BookUpdate['b'], side: Side): number | undefined {
    const own = this.quoteOf(side);
    const ownTicks = own === undefined ? NaN : own.priceTicks;
    const ticks = sideTicks(levels);
    if (ticks !== undefined) {
      for (let i = 0; i < ticks.length; i++) {
        const priceTicks = ticks.priceTicks[i]!;
        if (ticks.qtyLots[i]! > (priceTicks === ownTicks ? this.p.sizeLots : 0)) return priceTicks;
      }
      return undefined;
    }
    for (const level of levels) {
      const priceTicks = this.tick.toTicks(level.p)!;
      if (level.q > (priceTicks === ownTicks ? this.p.sizeLots : 0)) return priceTicks;
    }
    return undefined;
  }

  onOrderFeed(feed: OrderFeed): void {
    this.inventory += fillDelta(feed, this.p.symbol);
    const oid = feed.o?.oid;
    const side = feed.o?.d;
    if (side === undefined || oid === undefined) return;
    const q = this.quoteOf(side);
    // Done with a quote (filled, canceled, rejected): the side is free to quote again.
    if (ends(feed.t)) {
      if (q?.id === oid) this.setQuote(side, undefined);
      else if (q !== undefined && q.id === undefined) this.endedEarly.add(oid);
    }
    if (feed.t === 'f' || feed.t === 'p') this.schedule();
  }

  /** Requotes on the next timer tick (at most once per requoteMs). */
  private schedule(): void {
    if (this.timerArmed) return;
    this.timerArmed = true;
    this.port.setTimer(this.p.requoteMs * 1_000_000, this.onTimer);
  }

  /** The requote timer's callback, made once. */
  private readonly onTimer = (): void => {
    this.timerArmed = false;
    this.requote();
  };

  private requote(): void {
    const mid = midTicks(this.touch);
    if (mid === undefined) return;
    const fair = mid - this.p.skewTicksPerLot * this.inventory;
    const bid = Math.min(Math.floor(fair - this.p.halfSpreadTicks), this.touch.ask! - 1);
    const ask = Math.max(Math.ceil(fair + this.p.halfSpreadTicks), this.touch.bid! + 1);
    const bidTicks = this.allowed('B') ? bid : undefined;
    const askTicks = this.allowed('S') ? ask : undefined;
    // Each side on its own, and only when its quote would move (most ticks neither does): no
    // async call just to find that out, and no Promise.all, since nothing waits for the two.
    if (this.wouldMove('B', bidTicks)) void this.quote('B', bidTicks);
    if (this.wouldMove('S', askTicks)) void this.quote('S', askTicks);
  }

  /** Whether `quote(side, priceTicks)` would send anything (its checks before the first await). */
  private wouldMove(side: Side, priceTicks: number | undefined): boolean {
    const current = this.quoteOf(side);
    if (current !== undefined) return current.priceTicks !== priceTicks && current.id !== undefined;
    return priceTicks !== undefined && priceTicks > 0 && this.allowed(side);
  }

  private quoteOf(side: Side): Quote | undefined {
    return side === 'B' ? this.bidQuote : this.askQuote;
  }

  private setQuote(side: Side, quote: Quote | undefined): void {
    if (side === 'B') this.bidQuote = quote;
    else this.askQuote = quote;
  }

  /** Whether a fill of a new quote on `side` would keep |inventory| within the limit. */
  private allowed(side: Side): boolean {
    const after = this.inventory + (side === 'B' ? this.p.sizeLots : -this.p.sizeLots);
    return Math.abs(after) <= this.p.maxInventoryLots;
  }

  /**
   * Moves the quote of `side` to `priceTicks` (or pulls it when undefined). Awaits only what
   * the next step needs: the cancel's answer (by then the inventory counts every fill of the
   * old quote) and the insert's (its id).
   */
  private async quote(side: Side, priceTicks: number | undefined): Promise<void> {
    const current = this.quoteOf(side);
    if (current !== undefined) {
      if (current.priceTicks === priceTicks || current.id === undefined) return; // in place, or not yet acknowledged
      this.setQuote(side, undefined);
      await this.port.cancelOrder(current.id);
    }
    // The old quote may have filled before the cancel reached the exchange (its fill feed came
    // first): check the limit again with the inventory as it is now.
    if (priceTicks === undefined || priceTicks <= 0 || !this.allowed(side)) return;
    const quote: Quote = { priceTicks };
    this.setQuote(side, quote);
    const id = await this.port.insertOrder({
      symbol: this.p.symbol,
      price: this.tick.toPrice(priceTicks),
      quantity: this.p.sizeLots,
      side,
      timeInForce: 'GTC',
      postOnly: true,
    });
    if (this.endedEarly.delete(id)) {
      if (this.quoteOf(side) === quote) this.setQuote(side, undefined); // filled or rejected already
    } else if (this.quoteOf(side) === quote) quote.id = id;
    else void this.port.cancelOrder(id); // replaced while the insert was in flight: nothing to wait for
  }
}

/** perpsim backtest's entry point: params (validated by paramsSchema) → strategy. */
export default function marketMaker(params: MarketMakerParams): Strategy {
  return new InventorySkewMaker(params);
}

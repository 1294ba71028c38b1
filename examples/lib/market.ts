/**
 * Small helpers the example strategies share: an instrument's tick size from the port, the
 * top of book from LEVEL_1 updates, and the net position from the strategy's own fills.
 * They use only the ExchangePort, so the examples run unchanged over the wire.
 */
import { TickSize } from '../../src/core/price.ts';
import type { ExchangePort } from '../../src/strategy/exchange-port.ts';
import type { BookUpdate } from '../../src/wire/market-data.ts';
import type { OrderFeed } from '../../src/wire/order.ts';

/** The tick size of `symbol`, asked from the exchange. */
export async function tickSizeOf(port: ExchangePort, symbol: string): Promise<TickSize> {
  const info = (await port.instruments()).find((i) => i.symbol === symbol);
  if (info === undefined) throw new Error(`the exchange does not list ${symbol}`);
  return new TickSize(info.tick_size);
}

/** Best bid and ask in ticks (undefined while a side is empty). */
export interface Touch {
  bid?: number;
  ask?: number;
}

/** The touch of a LEVEL_1 (or deeper) book update, in ticks. */
export function touchOf(book: BookUpdate, tick: TickSize): Touch {
  const touch: Touch = {};
  const bid = book.b[0];
  const ask = book.a[0];
  if (bid !== undefined) touch.bid = tick.toTicks(bid.p)!;
  if (ask !== undefined) touch.ask = tick.toTicks(ask.p)!;
  return touch;
}

/** Mid of a two-sided touch in ticks (may be a half tick), else undefined. */
export function midTicks(touch: Touch): number | undefined {
  return touch.bid !== undefined && touch.ask !== undefined ? (touch.bid + touch.ask) / 2 : undefined;
}

/** Signed lots a fill feed adds to the position of `symbol` (0 for other feeds). */
export function fillDelta(feed: OrderFeed, symbol: string): number {
  if ((feed.t !== 'p' && feed.t !== 'f') || feed.xs === undefined || feed.xs.s !== symbol) return 0;
  return feed.xs.d === 'B' ? feed.xs.q : -feed.xs.q;
}

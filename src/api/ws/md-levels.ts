import type { LevelView } from '../../book/events.ts';
import type { Market } from '../../venue/market.ts';
import type { Level } from './md-messages.ts';
import { jsonString } from './wire-json.ts';

/** Cached level texts beyond which the cache starts over (a book far larger than any depth sent). */
const MAX_CACHED_LEVELS = 16_384;

/**
 * The `"b":[…],"a":[…]` part of a market's book updates, with each level's text kept between
 * updates: a level whose quantity did not change is not formatted again (its price text is the
 * costly part, decimal formatting of the ticks), so an update that moves the touch re-encodes
 * the levels that changed and joins the rest. The text is JSON.stringify's of `bookUpdate`'s
 * `b` and `a` (src/venue/wire-forms.ts), limited to the first `depth` levels a side.
 */
export class LevelTexts {
  /** Per side (0 bids, 1 asks): price ticks → the level's quantity and text. L1 / L2 levels only. */
  private readonly cache: [Map<number, { qtyLots: number; text: string }>, Map<number, { qtyLots: number; text: string }>] = [new Map(), new Map()];
  /** Price ticks → JSON price text (also for LEVEL_3). */
  private readonly prices = new Map<number, string>();

  constructor(private readonly market: Market) {}

  /** `"b":[…],"a":[…]` of the book now at `level`, the first `depth` levels a side (Infinity: all). */
  levelsJson(level: Level, depth: number): string {
    const book = this.market.book;
    if (level === 'LEVEL_1') {
      if (depth < 1) return '"b":[],"a":[]';
      const { bid, ask } = book.l1();
      return `"b":[${bid === undefined ? '' : this.level(0, bid)}],"a":[${ask === undefined ? '' : this.level(1, ask)}]`;
    }
    if (level === 'LEVEL_2') {
      const { bids, asks } = book.l2(depth);
      return `"b":[${this.side(0, bids)}],"a":[${this.side(1, asks)}]`;
    }
    const { bids, asks } = book.l3(depth);
    const full = (l: (typeof bids)[number]): string => `{"p":${this.price(l.priceTicks)},"q":${l.qtyLots},"o":[${l.orders.map((o) => o.qtyLots).join(',')}]}`;
    return `"b":[${bids.map(full).join(',')}],"a":[${asks.map(full).join(',')}]`;
  }

  private side(s: 0 | 1, levels: readonly LevelView[]): string {
    let out = '';
    for (let i = 0; i < levels.length; i++) out += i === 0 ? this.level(s, levels[i]!) : `,${this.level(s, levels[i]!)}`;
    return out;
  }

  private level(s: 0 | 1, l: LevelView): string {
    const cache = this.cache[s];
    const hit = cache.get(l.priceTicks);
    if (hit !== undefined && hit.qtyLots === l.qtyLots) return hit.text;
    const text = `{"p":${this.price(l.priceTicks)},"q":${l.qtyLots}}`;
    if (hit !== undefined) {
      hit.qtyLots = l.qtyLots;
      hit.text = text;
    } else {
      if (cache.size >= MAX_CACHED_LEVELS) cache.clear();
      cache.set(l.priceTicks, { qtyLots: l.qtyLots, text });
    }
    return text;
  }

  private price(ticks: number): string {
    let text = this.prices.get(ticks);
    if (text === undefined) {
      if (this.prices.size >= MAX_CACHED_LEVELS) this.prices.clear();
      this.prices.set(ticks, (text = jsonString(this.market.instrument.tick.toPrice(ticks))));
    }
    return text;
  }
}

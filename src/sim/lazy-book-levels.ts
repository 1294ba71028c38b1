import type { OrderBook } from '../book/order-book.ts';
import type { TickSize } from '../core/price.ts';
import type { Side } from '../core/types.ts';
import type { BookLevel } from '../wire/market-data.ts';

/**
 * One side of a LEVEL_2 book update for an in-process strategy, captured as numbers when the
 * update is sent and rendered as wire levels (`{ p, q }`, decimal price text) only when read.
 *
 * Why: a recorded book has ~2,000 levels and changes on every recorded diff, while a strategy
 * typically reads the touch. Rendering every level as decimal text for every update was most
 * of a market-making replay's time. The capture (two typed arrays) is cheap, and the levels a
 * strategy reads render once each, on first read, into the same objects every later read sees.
 *
 * To the strategy it is an array of `BookLevel`: indexing, `length`, iteration, `map`,
 * `JSON.stringify` all behave as on a plain array; a write of any kind (`sort`, `push`, an
 * assignment) first renders every level, then works on the plain array underneath.
 */
export class CapturedSide {
  private constructor(
    readonly priceTicks: Float64Array,
    readonly qtyLots: Float64Array,
  ) {}

  /** One side of `book` now, best first, as `book.l2(depth)` lists it. */
  static of(book: OrderBook, side: Side, depth = Infinity): CapturedSide {
    const n = Math.min(book.depthOf(side), depth);
    const prices = new Float64Array(n);
    const qtys = new Float64Array(n);
    book.l2Into(side, prices, qtys);
    return new CapturedSide(prices, qtys);
  }

  get length(): number {
    return this.priceTicks.length;
  }

  /** Same levels (prices and quantities) as `other`: an update identical to the last one sent. */
  equals(other: CapturedSide): boolean {
    const n = this.priceTicks.length;
    if (other.priceTicks.length !== n) return false;
    for (let i = 0; i < n; i++) {
      if (this.priceTicks[i] !== other.priceTicks[i] || this.qtyLots[i] !== other.qtyLots[i]) return false;
    }
    return true;
  }

  /** The side as an array of wire levels that renders each level on first read. */
  levels(tick: TickSize): BookLevel[] {
    return new Proxy(new Array<BookLevel>(this.length), new LazyLevelsHandler(this, tick));
  }
}

/** An array index property key ("0", "1", …) as a number, else -1. */
function indexOf(key: string | symbol): number {
  if (typeof key !== 'string' || key.length === 0 || key.length > 10) return -1;
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57 || (c === 48 && key.length > 1)) return -1;
  const i = Number(key);
  return Number.isInteger(i) ? i : -1;
}

class LazyLevelsHandler implements ProxyHandler<BookLevel[]> {
  /** Once every level is rendered (or the array was written to), the proxy is a plain array. */
  private whole = false;

  constructor(
    private readonly side: CapturedSide,
    private readonly tick: TickSize,
  ) {}

  get(target: BookLevel[], key: string | symbol, receiver: unknown): unknown {
    if (!this.whole) {
      const i = indexOf(key);
      if (i >= 0 && i < this.side.length) return target[i] ?? this.render(target, i);
    }
    return Reflect.get(target, key, receiver);
  }

  has(target: BookLevel[], key: string | symbol): boolean {
    if (!this.whole) {
      const i = indexOf(key);
      if (i >= 0) return i < this.side.length;
    }
    return Reflect.has(target, key);
  }

  set(target: BookLevel[], key: string | symbol, value: unknown, receiver: unknown): boolean {
    this.renderAll(target);
    return Reflect.set(target, key, value, receiver);
  }

  deleteProperty(target: BookLevel[], key: string | symbol): boolean {
    this.renderAll(target);
    return Reflect.deleteProperty(target, key);
  }

  defineProperty(target: BookLevel[], key: string | symbol, attributes: PropertyDescriptor): boolean {
    this.renderAll(target);
    return Reflect.defineProperty(target, key, attributes);
  }

  getOwnPropertyDescriptor(target: BookLevel[], key: string | symbol): PropertyDescriptor | undefined {
    this.renderAll(target);
    return Reflect.getOwnPropertyDescriptor(target, key);
  }

  ownKeys(target: BookLevel[]): ArrayLike<string | symbol> {
    this.renderAll(target);
    return Reflect.ownKeys(target);
  }

  private render(target: BookLevel[], i: number): BookLevel {
    const level = { p: this.tick.toPrice(this.side.priceTicks[i]!), q: this.side.qtyLots[i]! };
    target[i] = level;
    return level;
  }

  private renderAll(target: BookLevel[]): void {
    if (this.whole) return;
    for (let i = 0; i < this.side.length; i++) if (target[i] === undefined) this.render(target, i);
    this.whole = true;
  }
}

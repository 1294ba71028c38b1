import type { TickSize } from '../core/price.ts';
import { SIDE_TICKS, type SideTicks, type TickSource } from '../strategy/book-ticks.ts';
import type { BookLevel } from '../wire/market-data.ts';

/**
 * The proxy handler behind a captured side's `levels()`: an array of wire levels that renders
 * each level (decimal price text) on first read, and becomes a plain array on any write or
 * whole-array read; `sideTicks` reads the capture through it until the array is written to.
 */
/** An array index property key ("0", "1", …) as a number, else -1. */
function indexOf(key: string | symbol): number {
  if (typeof key !== 'string' || key.length === 0 || key.length > 10) return -1;
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57 || (c === 48 && key.length > 1)) return -1;
  const i = Number(key);
  return Number.isInteger(i) ? i : -1;
}

export class LazyLevelsHandler implements ProxyHandler<BookLevel[]>, TickSource {
  /** Once every level is rendered (or the array was written to), the proxy is a plain array. */
  private whole = false;
  /** Set by any write: the levels may then differ from the capture, which is no longer offered. */
  private written = false;
  /** The proxy this handles (`TickSource.view`), set once it is made. */
  view: BookLevel[] | undefined = undefined;

  constructor(
    /** The capture (`CapturedSide` of `lazy-book-levels.ts`), offered as the side's `SideTicks`. */
    private readonly side: SideTicks,
    private readonly tick: TickSize,
  ) {}

  /** What the side offers as `SideTicks` (`sideTicks` reads it here, or through `get`). */
  ticks(): SideTicks | undefined {
    return this.written ? undefined : this.side;
  }

  get(target: BookLevel[], key: string | symbol, receiver: unknown): unknown {
    if (key === SIDE_TICKS) return this.ticks();
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
    this.written = true;
    this.renderAll(target);
    return Reflect.set(target, key, value, receiver);
  }

  deleteProperty(target: BookLevel[], key: string | symbol): boolean {
    this.written = true;
    this.renderAll(target);
    return Reflect.deleteProperty(target, key);
  }

  defineProperty(target: BookLevel[], key: string | symbol, attributes: PropertyDescriptor): boolean {
    this.written = true;
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

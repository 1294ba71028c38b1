import type { SimClock } from '../clock/sim-clock.ts';
import { CounterIds, IdGenerator } from '../core/ids.ts';
import type { Money } from '../core/money.ts';
import type { Account } from './account.ts';
import type { VenueListener } from './feeds.ts';
import type { OrderFeed } from '../wire/order.ts';
import type { Market } from './market.ts';
import type { Order } from './order.ts';

/**
 * The state every part of the venue works on: clock, markets, accounts, resting orders,
 * id generators, listeners. The parts (order flow, settlement, sessions) each get this one
 * object instead of reaching into each other.
 */
export class VenueState {
  readonly markets: Market[] = [];
  readonly marketBySymbol = new Map<string, Market>();
  readonly accounts: Account[] = [];
  readonly accountByName = new Map<string, Account>();
  /** Every order resting on a book, by engine id. */
  readonly resting = new Map<number, Order>();
  readonly listeners: VenueListener[] = [];
  readonly orderIds = new IdGenerator('O-');
  readonly liquidationIds = new IdGenerator('L-');
  readonly executionIds = new CounterIds();
  readonly tradeIds = new CounterIds();
  /** Σ fees charged (maker rebates count negative). */
  feesCollected: Money = 0n;
  /** Number of times an account was liquidated. */
  liquidations = 0;
  /** Set while the venue processes a command: listeners must not re-enter. */
  busy = false;

  constructor(readonly clock: SimClock) {}

  /** Milliseconds of the current sim time (for ULID-style ids). */
  nowMs(): number {
    return this.clock.nowSec * 1000 + Math.floor(this.clock.nowNanos / 1_000_000);
  }

  /** Sends an order feed for `userId` to every listener. */
  emitFeed(userId: number, feed: OrderFeed): void {
    for (const l of this.listeners) l.orderFeed?.(userId, feed);
  }

  /** Calls `fn` on every listener that has the hook. */
  announce<K extends keyof VenueListener>(hook: K, ...args: Parameters<NonNullable<VenueListener[K]>>): void {
    for (const l of this.listeners) {
      const f = l[hook] as ((...a: unknown[]) => void) | undefined;
      if (f !== undefined) f.apply(l, args);
    }
  }

  /** Runs a command with the re-entrancy guard. */
  exclusive<T>(fn: () => T): T {
    if (this.busy) throw new Error('venue is busy: a listener must not call the venue synchronously; schedule the call on the clock');
    this.busy = true;
    try {
      return fn();
    } finally {
      this.busy = false;
    }
  }

  /** Account by username, or undefined. */
  account(username: string): Account | undefined {
    return this.accountByName.get(username);
  }
}

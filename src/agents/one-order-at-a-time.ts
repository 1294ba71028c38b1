import type { ExchangePort } from '../strategy/exchange-port.ts';
import { nowSec } from './clock-helpers.ts';
import type { FeedOutcome } from './own-orders.ts';

/**
 * A taker's turns per symbol: one order at a time, and none for a while after the venue said it
 * is closed. A symbol is busy from `sent` until a feed ends its order (canceled, expired, done
 * for the day, rejected or filled in full); an EXCHANGE_CLOSED reject pauses the symbol for
 * `closedBackoffSec` of exchange time. The informed trader and the signal traders, which walk a
 * position with single IOCs, keep their symbols with it.
 */
export class OneOrderAtATime {
  private readonly busySymbols = new Set<string>();
  private readonly closedUntilSec = new Map<string, number>();

  constructor(
    private readonly port: ExchangePort,
    private readonly closedBackoffSec: number,
  ) {}

  /** Takes what one of the agent's feeds meant (`OwnOrders.apply` / `applyNote`). */
  settle(outcome: FeedOutcome): void {
    if (outcome.kind === 'ended' || outcome.kind === 'rejected' || (outcome.kind === 'fill' && outcome.done)) {
      this.busySymbols.delete(outcome.symbol);
      if (outcome.kind === 'rejected' && outcome.reason === 'EXCHANGE_CLOSED') {
        this.closedUntilSec.set(outcome.symbol, nowSec(this.port) + this.closedBackoffSec);
      }
    }
  }

  /** An order of `symbol` was sent: the symbol is busy until a feed ends it. */
  sent(symbol: string): void {
    this.busySymbols.add(symbol);
  }

  /** True while an order of `symbol` is out. */
  busy(symbol: string): boolean {
    return this.busySymbols.has(symbol);
  }

  /** True while `symbol` is paused after an EXCHANGE_CLOSED reject (`tSec`: exchange time, seconds). */
  paused(symbol: string, tSec: number): boolean {
    return tSec < (this.closedUntilSec.get(symbol) ?? 0);
  }
}

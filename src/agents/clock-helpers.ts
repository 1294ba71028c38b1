import type { ExchangePort } from '../strategy/exchange-port.ts';

/** Exchange time of `port` in seconds since the epoch, as a float (sub-µs precision is lost). */
export function nowSec(port: ExchangePort): number {
  return port.nowSeconds !== undefined ? port.nowSeconds() : Number(port.now()) / 1e9;
}

/** Seconds → a non-negative integer count of nanoseconds for `port.setTimer`. */
export function secToNs(sec: number): number {
  return Math.max(0, Math.round(sec * 1e9));
}

/**
 * At most one pending timer per key: `schedule` does nothing while one is pending, so
 * throttled work (requotes, retries) never piles up events on the clock.
 */
export class TimerSlots {
  private readonly pending = new Set<string>();

  constructor(private readonly port: ExchangePort) {}

  /** Runs `fn` after `delaySec` unless a timer for `key` is already pending. */
  schedule(key: string, delaySec: number, fn: () => void): void {
    if (this.pending.has(key)) return;
    this.pending.add(key);
    this.port.setTimer(secToNs(delaySec), () => {
      this.pending.delete(key);
      fn();
    });
  }

  /** True while a timer for `key` is pending. */
  has(key: string): boolean {
    return this.pending.has(key);
  }
}

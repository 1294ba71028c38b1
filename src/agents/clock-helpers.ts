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
  /**
   * A slot per key, kept (not added and deleted per timer: that set churn rehashed its table),
   * with the runner of its pending timer made once: no closure per timer for a slot whose
   * timers always run the same function (a market maker's requote).
   */
  private readonly slots = new Map<string, { pending: boolean; fn: () => void; run: () => void }>();

  constructor(private readonly port: ExchangePort) {}

  /** Runs `fn` after `delaySec` unless a timer for `key` is already pending. */
  schedule(key: string, delaySec: number, fn: () => void): void {
    let slot = this.slots.get(key);
    if (slot === undefined) {
      const s = { pending: false, fn, run: () => ((s.pending = false), s.fn()) };
      this.slots.set(key, (slot = s));
    } else if (slot.pending) return;
    slot.pending = true;
    slot.fn = fn;
    this.port.setTimer(secToNs(delaySec), slot.run);
  }

  /** True while a timer for `key` is pending. */
  has(key: string): boolean {
    return this.slots.get(key)?.pending === true;
  }
}

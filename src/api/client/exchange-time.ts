/**
 * Exchange time as a client sees it: the latest instant it has heard of (every feed, market-data
 * message and heartbeat carries `ts`/`tn`; risk snapshots and the admin clock carry time too).
 * It never goes backwards. Timers are due at an exchange time and fire, in due order (ties in
 * the order they were set), as soon as a message shows that time has passed — so they follow a
 * manual or accelerated clock exactly, with the resolution of the message flow (heartbeats
 * every 2 s of wall time at the least, on perpsim).
 */
export class ExchangeTime {
  private nowNs = 0n;
  private readonly timers: { dueNs: bigint; seq: number; fn: () => void }[] = [];
  private seq = 0;

  now(): bigint {
    return this.nowNs;
  }

  /** Records that the exchange has reached `tNs`, then fires every timer now due. */
  observe(tNs: bigint): void {
    if (tNs > this.nowNs) this.nowNs = tNs;
    while (this.timers.length > 0 && this.timers[0]!.dueNs <= this.nowNs) this.timers.shift()!.fn();
  }

  /** Records `ts` (Unix seconds) and `tn` (nanoseconds) of a wire message, when it has them. */
  observeMessage(message: { readonly [key: string]: unknown }): void {
    if (typeof message.ts === 'number' && Number.isSafeInteger(message.ts)) {
      this.observe(BigInt(message.ts) * 1_000_000_000n + BigInt(typeof message.tn === 'number' && Number.isSafeInteger(message.tn) ? message.tn : 0));
    }
  }

  /** Calls `fn` once exchange time reaches now + `delayNs`; returns the function that cancels it. */
  setTimer(delayNs: number, fn: () => void): () => void {
    const timer = { dueNs: this.nowNs + BigInt(Math.max(0, Math.round(delayNs))), seq: this.seq++, fn };
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1]!.dueNs > timer.dueNs) i--;
    this.timers.splice(i, 0, timer);
    // Already due (delay 0): fire on the next turn of the event loop rather than waiting for a message.
    if (timer.dueNs <= this.nowNs) setImmediate(() => this.observe(this.nowNs));
    return () => {
      const at = this.timers.indexOf(timer);
      if (at >= 0) this.timers.splice(at, 1);
    };
  }

  /** Drops every timer. */
  clear(): void {
    this.timers.length = 0;
  }
}

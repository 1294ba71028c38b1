import type { SimClock } from '../clock/sim-clock.ts';
import type { IndexOracle } from '../agents/environment.ts';
import type { IndexActor } from './index-actor.ts';
import type { LatencyModel } from './latency.ts';

/**
 * One agent's view of the index actors: each published level reaches the agent after a
 * sample of its market-data latency, and `peek` reads the precomputed path ahead (only the
 * informed agents are told they may). Deliveries are scheduled only once the agent listens,
 * so agents that just read `indexPrice` cost nothing per update.
 */
export class AgentIndexFeed implements IndexOracle {
  private readonly actors = new Map<string, IndexActor>();
  private readonly seen = new Map<string, number>();
  private readonly handlers: ((symbol: string, price: number) => void)[] = [];
  private attached = false;

  constructor(
    private readonly clock: SimClock,
    actors: readonly IndexActor[],
    private readonly latency: LatencyModel,
  ) {
    for (const a of actors) this.actors.set(a.symbol, a);
  }

  indexPrice(symbol: string): number | undefined {
    if (!this.attached) return this.actors.get(symbol)?.level;
    return this.seen.get(symbol) ?? this.actors.get(symbol)?.level;
  }

  onUpdate(fn: (symbol: string, price: number) => void): () => void {
    this.handlers.push(fn);
    if (!this.attached) this.attach();
    return () => {
      const i = this.handlers.indexOf(fn);
      if (i >= 0) this.handlers.splice(i, 1);
    };
  }

  peek(symbol: string, aheadSec: number): number | undefined {
    return this.actors.get(symbol)?.peek(aheadSec);
  }

  private attach(): void {
    this.attached = true;
    // Arrival time of the last level sent, as (sec, nanos) on plain numbers: this runs for
    // every index step of every agent, and bigint time was most of its cost.
    let lastSec = 0;
    let lastNanos = 0;
    for (const actor of this.actors.values()) {
      this.seen.set(actor.symbol, actor.level);
      actor.onUpdate((symbol, price) => {
        const clock = this.clock;
        const nowSec = clock.nowSec;
        const nowNanos = clock.nowNanos;
        let sec = nowSec;
        let nanos = nowNanos + this.latency.sampleNs(nowSec, nowNanos);
        if (nanos >= NS_PER_S) {
          const carry = Math.floor(nanos / NS_PER_S);
          sec += carry;
          nanos -= carry * NS_PER_S;
        }
        // In order, like any one feed: a later level never overtakes an earlier one.
        if (sec < lastSec || (sec === lastSec && nanos < lastNanos)) {
          sec = lastSec;
          nanos = lastNanos;
        }
        lastSec = sec;
        lastNanos = nanos;
        clock.scheduleIn((sec - nowSec) * NS_PER_S + (nanos - nowNanos), () => {
          this.seen.set(symbol, price);
          for (const h of this.handlers) h(symbol, price);
        });
      });
    }
  }
}

const NS_PER_S = 1_000_000_000;

import type { SimClock } from '../clock/sim-clock.ts';
import type { IndexOracle } from '../agents/environment.ts';
import type { IndexActor } from './index-actor.ts';
import type { LatencyModel } from './latency.ts';
import { PortChannel } from './port-channel.ts';

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
    // One ordered channel for every symbol, like any one feed: a later level never overtakes an earlier one.
    const channel = new PortChannel(this.latency);
    for (const actor of this.actors.values()) {
      this.seen.set(actor.symbol, actor.level);
      actor.onUpdate((symbol, price) => {
        const clock = this.clock;
        clock.postIn(channel.delayNs(clock.nowSec, clock.nowNanos), this.arrive, { symbol, price });
      });
    }
  }

  /** A level reaches the agent. */
  private readonly arrive = ({ symbol, price }: { symbol: string; price: number }): void => {
    this.seen.set(symbol, price);
    for (const h of this.handlers) h(symbol, price);
  };
}

import { SimClock } from '../clock/sim-clock.ts';
import { parseMoney } from '../core/money.ts';
import { parseDuration, parseTimestamp } from '../core/time.ts';
import type { TimeNs } from '../core/types.ts';
import { RandomStreams } from '../random/random-stream.ts';
import type { Scenario } from '../scenario/schema.ts';
import { Venue } from '../venue/venue.ts';

/**
 * One simulated run: the clock, the venue with the scenario's instruments and users, and the
 * seeded random streams every actor draws from. Actors (index processes, agents, strategies,
 * replayed data) attach to it before `start()`; `runUntil` / `runToEnd` move time.
 */
export class Simulation {
  readonly clock: SimClock;
  readonly venue: Venue;
  readonly streams: RandomStreams;
  readonly startNs: TimeNs;
  readonly endNs: TimeNs;
  readonly seed: number;
  private readonly starters: (() => void)[] = [];
  private started = false;

  constructor(
    readonly scenario: Scenario,
    options: { seed?: number; durationNs?: TimeNs } = {},
  ) {
    this.seed = options.seed ?? scenario.seed;
    this.startNs = parseTimestamp(scenario.start)!;
    this.endNs = this.startNs + (options.durationNs ?? parseDuration(scenario.duration)!);
    this.clock = new SimClock(this.startNs);
    this.venue = new Venue(this.clock, { instruments: scenario.instruments, ...scenario.venue });
    this.streams = new RandomStreams(this.seed);
    for (const u of scenario.users) this.venue.addUser(u.username, parseMoney(u.cash));
  }

  /** Registers an actor's start-up (scheduling its first events); run in registration order. */
  onStart(starter: () => void): void {
    if (this.started) throw new Error('simulation already started');
    this.starters.push(starter);
  }

  /** Starts the venue's processes, then every actor. */
  start(): void {
    if (this.started) throw new Error('simulation already started');
    this.started = true;
    this.venue.start();
    for (const s of this.starters) s();
  }

  /** Runs every event up to `tNs` (at most the end of the run). */
  runUntil(tNs: TimeNs): void {
    if (!this.started) this.start();
    this.clock.runUntil(tNs < this.endNs ? tNs : this.endNs);
  }

  /** Runs to the end of the scenario's duration. */
  runToEnd(): void {
    this.runUntil(this.endNs);
  }

  get isFinished(): boolean {
    return this.clock.nowNs >= this.endNs;
  }
}

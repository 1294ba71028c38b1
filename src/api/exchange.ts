import { randomBytes } from 'node:crypto';
import { SimClock } from '../clock/sim-clock.ts';
import { parseMoney, type Money } from '../core/money.ts';
import { parseTimestamp } from '../core/time.ts';
import type { Scenario } from '../scenario/schema.ts';
import type { Simulation } from '../sim/simulation.ts';
import { Venue } from '../venue/venue.ts';
import { UserDirectory } from './auth/user-directory.ts';
import { ClockDriver, type Speed } from './clock-driver.ts';

export interface ExchangeOptions {
  speed?: Speed;
  manual?: boolean;
  /** Admin bearer token; generated when absent. */
  adminToken?: string;
  /** scrypt cost for password hashing (tests lower it). */
  scryptCost?: number;
  /** Wall clock for token expiry and pacing (tests inject it). */
  wallNow?: () => number;
}

/**
 * One running exchange: the venue on its clock, the user directory, the clock driver and the
 * admin token. The REST app and both websockets share it; `afterRun` hooks let the
 * market-data socket flush after every batch of sim events.
 */
export class Exchange {
  readonly clock: SimClock;
  readonly venue: Venue;
  readonly users: UserDirectory;
  readonly driver: ClockDriver;
  readonly adminToken: string;
  private readonly afterRunHooks: (() => void)[] = [];

  private constructor(
    readonly scenario: Scenario,
    options: ExchangeOptions,
    sim?: Simulation,
  ) {
    this.clock = sim?.clock ?? new SimClock(parseTimestamp(scenario.start)!);
    this.venue = sim?.venue ?? new Venue(this.clock, { instruments: scenario.instruments, ...scenario.venue });
    this.users = new UserDirectory({ now: options.wallNow, scryptCost: options.scryptCost });
    this.adminToken = options.adminToken ?? randomBytes(24).toString('base64url');
    this.driver = new ClockDriver(this.clock, {
      speed: options.speed,
      manual: options.manual,
      wallNow: options.wallNow,
      afterRun: () => this.afterRunHooks.forEach((h) => h()),
    });
  }

  /** Builds the exchange, registers the scenario's users and starts the venue (not the driver). */
  static async create(scenario: Scenario, options: ExchangeOptions = {}): Promise<Exchange> {
    const exchange = new Exchange(scenario, options);
    for (const u of scenario.users) {
      await exchange.addUser(u.username, u.password, parseMoney(u.cash), u.totpSecret);
    }
    exchange.venue.start();
    return exchange;
  }

  /**
   * Serves a built simulation (its agents trade on the same venue): the scenario's users already
   * have accounts there, so only their credentials are registered; then the simulation starts.
   */
  static async forSimulation(sim: Simulation, options: ExchangeOptions = {}): Promise<Exchange> {
    const exchange = new Exchange(sim.scenario, options, sim);
    for (const u of sim.scenario.users) await exchange.users.addUser(u.username, u.password, u.totpSecret);
    sim.start();
    return exchange;
  }

  /** Registers a user in both the directory (credentials) and the venue (account). */
  async addUser(username: string, password: string, cash: Money, totpSecret?: string): Promise<void> {
    if (this.users.has(username) || this.venue.account(username)) throw new RangeError(`user ${username} already exists`);
    await this.users.addUser(username, password, totpSecret);
    this.venue.addUser(username, cash);
  }

  /** Registers a hook run after each batch of clock events; returns the function that removes it. */
  onAfterRun(hook: () => void): () => void {
    this.afterRunHooks.push(hook);
    return () => {
      const at = this.afterRunHooks.indexOf(hook);
      if (at >= 0) this.afterRunHooks.splice(at, 1);
    };
  }

  /** Brings sim time up to the wall-clock pace before a request is answered. */
  sync(): void {
    this.driver.sync();
  }
}

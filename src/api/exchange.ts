import { randomBytes } from 'node:crypto';
import type { SimClock } from '../clock/sim-clock.ts';
import type { Money } from '../core/money.ts';
import type { Scenario } from '../scenario/schema.ts';
import { Simulation } from '../sim/simulation.ts';
import type { Venue } from '../venue/venue.ts';
import { LoginThrottle, type ThrottleRule } from './auth/login-throttle.ts';
import { UserDirectory } from './auth/user-directory.ts';
import { ClockDriver, type Speed } from './clock-driver.ts';
import { Commands } from './journal/commands.ts';

export interface ExchangeOptions {
  speed?: Speed;
  manual?: boolean;
  /** Admin bearer token; generated when absent. */
  adminToken?: string;
  /** scrypt cost for password hashing (tests lower it). */
  scryptCost?: number;
  /** Wall clock for token expiry and pacing (tests inject it). */
  wallNow?: () => number;
  /** Failed-login limits per user and per address (defaults in login-throttle.ts). */
  loginThrottle?: { user?: ThrottleRule; address?: ThrottleRule };
  /** Live tokens per user; the oldest is revoked beyond it (default 256). */
  maxTokensPerUser?: number;
  /** Passwords replacing the scenario users' (demo) passwords, by username. */
  userPasswords?: Record<string, string>;
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
  readonly loginThrottle: LoginThrottle;
  readonly scenario: Scenario;
  /** Every command that changes the exchange goes through here (and its journal, if any). */
  readonly commands: Commands;
  private readonly afterRunHooks: (() => void)[] = [];

  private constructor(sim: Simulation, options: ExchangeOptions) {
    this.scenario = sim.scenario;
    this.clock = sim.clock;
    this.venue = sim.venue;
    this.users = new UserDirectory({ now: options.wallNow, scryptCost: options.scryptCost, maxTokensPerUser: options.maxTokensPerUser });
    this.loginThrottle = new LoginThrottle(options.wallNow, options.loginThrottle);
    this.adminToken = options.adminToken ?? randomBytes(24).toString('base64url');
    this.commands = new Commands(this);
    this.driver = new ClockDriver(this.clock, {
      speed: options.speed,
      manual: options.manual,
      wallNow: options.wallNow,
      afterRun: () => this.afterRunHooks.forEach((h) => h()),
    });
  }

  /**
   * The scenario's venue alone (no index processes, no agents): clock and venue assembled by
   * `Simulation`, as for every run; the scenario's users are registered, the venue started (not the driver).
   */
  static create(scenario: Scenario, options: ExchangeOptions = {}): Promise<Exchange> {
    return Exchange.forSimulation(new Simulation(scenario), options);
  }

  /**
   * Serves a built simulation (its agents trade on the same venue): the scenario's users already
   * have accounts there, so only their credentials are registered; then the simulation starts.
   */
  static async forSimulation(sim: Simulation, options: ExchangeOptions = {}): Promise<Exchange> {
    const exchange = new Exchange(sim, options);
    for (const u of sim.scenario.users) await exchange.users.addUser(u.username, options.userPasswords?.[u.username] ?? u.password, u.totpSecret);
    sim.start();
    return exchange;
  }

  /** Registers a user in both the directory (credentials) and the venue (account). */
  async addUser(username: string, password: string, cash: Money, totpSecret?: string): Promise<void> {
    if (this.users.has(username) || this.venue.account(username)) throw new RangeError(`user ${username} already exists`);
    await this.users.addUser(username, password, totpSecret);
    this.commands.openAccount(username, cash);
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

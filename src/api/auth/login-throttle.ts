/**
 * Rate limit of failed logins (password or API-key guesses), per user and per client address:
 * a leaky bucket per key. Every failure adds one; the level drains by one every `drainMs`;
 * while the level is at `burst` or more, further attempts on that key are refused before any
 * password is checked, with the wall time until the next attempt is allowed (the 429's
 * `Retry-After`). A success does not reset the address bucket (an attacker holding one valid
 * account must not unlock guessing others), only the user's.
 *
 * Memory is bounded: at most `maxKeys` buckets are kept (the least recently failed go first).
 */
export interface ThrottleRule {
  /** Failures allowed in a row before attempts are refused. */
  burst: number;
  /** Wall milliseconds per failure forgiven. */
  drainMs: number;
}

/** Defaults: 5 guesses per user, then one per 12 s; 20 per address, then one per 3 s. */
export const USER_RULE: ThrottleRule = { burst: 5, drainMs: 12_000 };
export const ADDRESS_RULE: ThrottleRule = { burst: 20, drainMs: 3_000 };

interface Bucket {
  level: number;
  atMs: number;
}

class Buckets {
  private readonly map = new Map<string, Bucket>();

  constructor(
    private readonly rule: ThrottleRule,
    private readonly maxKeys: number,
  ) {}

  /** Milliseconds until `key` may try again (0 when it may now). */
  waitMs(key: string, nowMs: number): number {
    const b = this.map.get(key);
    if (b === undefined) return 0;
    const level = this.drained(b, nowMs);
    if (level < this.rule.burst) return 0;
    return Math.ceil((level - this.rule.burst + 1) * this.rule.drainMs - 1e-9);
  }

  fail(key: string, nowMs: number): void {
    const b = this.map.get(key);
    const level = b === undefined ? 0 : this.drained(b, nowMs);
    this.map.delete(key); // re-insert: the map's order is least recently failed first
    this.map.set(key, { level: level + 1, atMs: nowMs });
    if (this.map.size > this.maxKeys) this.map.delete(this.map.keys().next().value!);
  }

  reset(key: string): void {
    this.map.delete(key);
  }

  private drained(b: Bucket, nowMs: number): number {
    return Math.max(0, b.level - Math.max(0, nowMs - b.atMs) / this.rule.drainMs);
  }
}

export class LoginThrottle {
  private readonly users: Buckets;
  private readonly addresses: Buckets;

  constructor(
    private readonly now: () => number = Date.now,
    rules: { user?: ThrottleRule; address?: ThrottleRule; maxKeys?: number } = {},
  ) {
    this.users = new Buckets(rules.user ?? USER_RULE, rules.maxKeys ?? 100_000);
    this.addresses = new Buckets(rules.address ?? ADDRESS_RULE, rules.maxKeys ?? 100_000);
  }

  /** Whole seconds to wait before `user` may try from `address`; 0 when allowed now. */
  retryAfterSec(user: string, address: string): number {
    const now = this.now();
    return Math.ceil(Math.max(this.users.waitMs(user, now), this.addresses.waitMs(address, now)) / 1000);
  }

  /** Records a failed attempt. */
  failed(user: string, address: string): void {
    const now = this.now();
    this.users.fail(user, now);
    this.addresses.fail(address, now);
  }

  /** Records a success: the user's failures are forgiven. */
  succeeded(user: string): void {
    this.users.reset(user);
  }
}

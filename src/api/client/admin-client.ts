import type { RestClient } from './rest-client.ts';

/** `GET /admin/clock` and every clock call's answer. */
export interface ClockStatus {
  /** Exchange time, ns since the epoch (the wire's decimal string, parsed). */
  nowNs: bigint;
  speed: number | 'max';
  paused: boolean;
}

interface WireClockStatus {
  now_ns: string;
  speed: number | 'max';
  paused: boolean;
}

/**
 * perpsim's admin API (an extension beyond the interface document; a live venue has none),
 * authorized by the admin token. Every clock answer is reported to `onClock`, so a port's
 * exchange time (and its timers) follows an advance at once.
 */
export class AdminClient {
  constructor(
    private readonly rest: RestClient,
    private readonly onClock: (nowNs: bigint) => void = () => {},
  ) {}

  clock(): Promise<ClockStatus> {
    return this.status(this.rest.get<WireClockStatus>('/admin/clock'));
  }

  /** Runs every event of the next `seconds` of exchange time, then answers. */
  advance(seconds: number): Promise<ClockStatus> {
    return this.status(this.rest.post<WireClockStatus>('/admin/clock/advance', { seconds }));
  }

  pause(): Promise<ClockStatus> {
    return this.status(this.rest.post<WireClockStatus>('/admin/clock/pause'));
  }

  resume(): Promise<ClockStatus> {
    return this.status(this.rest.post<WireClockStatus>('/admin/clock/resume'));
  }

  setSpeed(speed: number | 'max'): Promise<ClockStatus> {
    return this.status(this.rest.post<WireClockStatus>('/admin/clock/speed', { speed }));
  }

  /** Creates a user with `cash` (decimal text); 409 when the name is taken. */
  async addUser(user: { username: string; password: string; cash: string; totpSecret?: string }): Promise<void> {
    const body: Record<string, string> = { username: user.username, password: user.password, cash: user.cash };
    if (user.totpSecret !== undefined) body.totp_secret = user.totpSecret;
    await this.rest.post('/admin/users', body);
  }

  /** Cancels any user's order as the exchange (feed `c` with `xr: EXCHANGE_OPTION`). */
  async cancelOrder(orderId: string): Promise<void> {
    await this.rest.post('/admin/orders/cancel', { order_id: orderId });
  }

  async setInstrumentState(symbol: string, state: string): Promise<void> {
    await this.rest.post(`/admin/instruments/${encodeURIComponent(symbol)}/state`, { state });
  }

  async stateHash(): Promise<string> {
    return (await this.rest.get<{ state_hash: string }>('/admin/state_hash')).state_hash;
  }

  private async status(answer: Promise<WireClockStatus>): Promise<ClockStatus> {
    const wire = await answer;
    const status = { nowNs: BigInt(wire.now_ns), speed: wire.speed, paused: wire.paused };
    this.onClock(status.nowNs);
    return status;
  }
}

import type { Hono } from 'hono';
import { formatTimestampNs } from '../../core/time.ts';
import type { Exchange } from '../exchange.ts';

/** What `GET /health` answers. */
export interface HealthBody {
  status: 'ok';
  /** The scenario being served. */
  scenario: string;
  /** Sim time, RFC 3339 with nanoseconds. */
  sim_time: string;
  /** Sim time in ns since the epoch, as decimal text (exact beyond 2^53). */
  sim_time_ns: string;
  /** The clock: speed (sim s per wall s, or "max"), paused (a manual clock is always paused). */
  clock: { speed: number | 'max'; paused: boolean };
}

/**
 * `GET /health` (an extension, without auth): for CI and orchestrators to wait on a server.
 * Answers 200 once the server listens; reading it never moves a manual clock.
 */
export function registerHealthRoutes(app: Hono, exchange: Exchange): void {
  app.get('/health', (c) => {
    const { now_ns, speed, paused } = exchange.driver.status(); // brings a running clock up to date
    const body: HealthBody = {
      status: 'ok',
      scenario: exchange.scenario.name,
      sim_time: formatTimestampNs(BigInt(now_ns)),
      sim_time_ns: now_ns,
      clock: { speed, paused },
    };
    return c.json(body);
  });
}

import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { Exchange } from '../exchange.ts';
import { HttpError } from './errors.ts';

/**
 * Failed-login rate limiting at the REST edge (see `LoginThrottle`): the token endpoints and
 * API-key creation run their credential check through {@link guardLogin}, which answers 429
 * with `Retry-After` (whole seconds) while the user or the client address is throttled —
 * before the password is even hashed — and records the outcome.
 */

/** The client's address (the TCP peer); "unknown" off node's server (app.request in tests). */
export function clientAddress(c: Context): string {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown';
}

/**
 * Runs `attempt` (a credential check; `undefined` or a failure string means it failed) unless
 * `userKey` or the caller's address is throttled, and records the outcome.
 */
export async function guardLogin<T>(c: Context, exchange: Exchange, userKey: string, attempt: () => Promise<T> | T, failed: (result: T) => boolean): Promise<T> {
  const address = clientAddress(c);
  const wait = exchange.loginThrottle.retryAfterSec(userKey, address);
  if (wait > 0) throw new HttpError(429, 'Too many failed login attempts; try again later', { 'Retry-After': String(wait) });
  const result = await attempt();
  if (failed(result)) exchange.loginThrottle.failed(userKey, address);
  else exchange.loginThrottle.succeeded(userKey);
  return result;
}

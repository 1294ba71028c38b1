import type { ConnectionOptions } from 'bullmq';

/** A redis:// (or rediss://) URL is not usable; the message is one line. */
export class QueueUrlError extends Error {}

/**
 * BullMQ connection options from `redis://[user:password@]HOST:PORT[/DB]` (`rediss://` for
 * TLS). `maxRetriesPerRequest: null`, as BullMQ requires for workers' blocking commands.
 */
export function redisConnection(url: string): ConnectionOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new QueueUrlError(`--queue must be a URL such as redis://127.0.0.1:6379, got "${url}"`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new QueueUrlError(`--queue must be a redis:// or rediss:// URL, got "${url}"`);
  const db = u.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new QueueUrlError(`--queue: the path must be a database number, got "${u.pathname}"`);
  const options: ConnectionOptions & Record<string, unknown> = {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port === '' ? 6379 : Number(u.port),
    maxRetriesPerRequest: null,
  };
  if (u.username !== '') options['username'] = decodeURIComponent(u.username);
  if (u.password !== '') options['password'] = decodeURIComponent(u.password);
  if (db !== '') options['db'] = Number(db);
  if (u.protocol === 'rediss:') options['tls'] = {};
  return options;
}

/** Resolves when `probe` (a first command) answers, rejects after `timeoutMs` (the client alone would retry forever). */
export async function checkReachable(probe: () => Promise<unknown>, url: string, timeoutMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueueUrlError(`cannot reach Redis at ${url} (no answer in ${timeoutMs / 1000} s)`)), timeoutMs);
  });
  try {
    await Promise.race([probe(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

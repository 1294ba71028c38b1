import { readFileSync } from 'node:fs';
import { UsageError } from './usage-error.ts';

/**
 * Serving beyond this machine. The scenarios' demo users have well-known passwords
 * (`alice-password`), fine on 127.0.0.1 and a hazard anywhere else. A non-loopback `--host`
 * therefore needs `--user-passwords FILE` (JSON `{"alice": "…", "bob": "…"}`, one entry per
 * scenario user), and the server prints a loud warning on stderr.
 */

/** True for hosts only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The passwords of `--user-passwords FILE`: a JSON object of username → non-empty string. */
export function readUserPasswords(path: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--user-passwords ${path}: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`--user-passwords ${path}: expected a JSON object of username → password`);
  for (const [user, password] of Object.entries(value)) {
    if (typeof password !== 'string' || password.length < 1 || password.length > 50) throw new UsageError(`--user-passwords ${path}: the password of ${user} must be a string of 1 to 50 characters`);
  }
  return value as Record<string, string>;
}

/**
 * Checks a bind before serving: loopback passes; anything else needs a password for every
 * scenario user, and gets the warning. Returns the warning text to print (or undefined).
 */
export function checkBind(host: string, users: readonly string[], passwords: Record<string, string> | undefined): string | undefined {
  if (isLoopback(host)) return undefined;
  const missing = users.filter((u) => passwords?.[u] === undefined);
  if (missing.length > 0) {
    throw new UsageError(
      `--host ${host} reaches beyond this machine: the demo users' passwords are public. Give every scenario user a password with --user-passwords FILE (missing: ${missing.join(', ')})`,
    );
  }
  return [
    '!'.repeat(78),
    `!! perpsim serve is listening on ${host}: reachable from other machines.`,
    '!! Anyone who can reach it can use the accounts whose credentials they know, and the admin',
    '!! token controls the clock and the cash. Plain HTTP: use it on trusted networks only.',
    '!'.repeat(78),
  ].join('\n');
}

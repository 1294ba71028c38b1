import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkBind, isLoopback, readUserPasswords } from '../../src/cli/bind-safety.ts';
import { parseServeArgs } from '../../src/cli/commands/serve.ts';
import { startServing, type Serving } from '../../src/cli/serve-command.ts';
import { UsageError } from '../../src/cli/usage-error.ts';
import { tempDir } from '../cli/cli-helpers.ts';

/** Serving beyond loopback needs explicit passwords and says so loudly. */
const servings: Serving[] = [];
afterEach(async () => {
  for (const s of servings.splice(0)) await s.close();
});

describe('non-loopback binds', () => {
  it('tells loopback hosts from the rest', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.com']) expect(isLoopback(host)).toBe(false);
  });

  it('refuses a non-loopback bind unless every scenario user has an explicit password, then warns', () => {
    expect(() => checkBind('0.0.0.0', ['alice', 'bob'], undefined)).toThrow(UsageError);
    expect(() => checkBind('0.0.0.0', ['alice', 'bob'], { alice: 'x' })).toThrow(/missing: bob/);
    expect(checkBind('0.0.0.0', ['alice', 'bob'], { alice: 'x', bob: 'y' })).toMatch(/reachable from other machines/);
    expect(checkBind('127.0.0.1', ['alice'], undefined)).toBeUndefined();
  });

  it('perpsim serve --host 0.0.0.0 stops before listening when the demo passwords would be served', async () => {
    const request = parseServeArgs(['--scenario', 'empty', '--host', '0.0.0.0', '--port', '0', '--manual'], {});
    await expect(startServing(request, { scryptCost: 1024 })).rejects.toThrow(/--user-passwords FILE \(missing: alice, bob\)/);
  });

  it('serves --user-passwords instead of the demo passwords, and keeps them out of the banner', async () => {
    const { dir, remove } = tempDir('perpsim-bind-');
    try {
      const file = join(dir, 'passwords.json');
      writeFileSync(file, JSON.stringify({ alice: 'a-long-secret', bob: 'another-secret' }));
      expect(readUserPasswords(file)).toEqual({ alice: 'a-long-secret', bob: 'another-secret' });
      const serving = await startServing(parseServeArgs(['--scenario', 'empty', '--port', '0', '--manual', '--user-passwords', file], {}), { scryptCost: 1024 });
      servings.push(serving);
      expect(serving.banner).toContain('alice / (from --user-passwords)');
      expect(serving.banner).not.toContain('a-long-secret');
      const token = (password: string) =>
        fetch(`${serving.server.url}/auth/get_user_token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'alice', password, expiration_seconds: 60 }) });
      expect((await token('alice-password')).status).toBe(401);
      expect((await token('a-long-secret')).status).toBe(200);
      writeFileSync(file, '{"alice": 5}');
      expect(() => readUserPasswords(file)).toThrow(/must be a string/);
    } finally {
      remove();
    }
  });
});

import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WireExchangePort } from '../../src/api/client/wire-exchange-port.ts';
import { main } from '../../src/cli/main.ts';
import { parseServeArgs } from '../../src/cli/commands/serve.ts';
import { serveCommand, startServing } from '../../src/cli/serve-command.ts';
import type { BookUpdate } from '../../src/wire/market-data.ts';
import { BIN } from './cli-helpers.ts';

describe('perpsim serve flags', () => {
  afterEach(() => vi.restoreAllMocks());

  it('defaults to the default scenario on 127.0.0.1:8080 in real time', () => {
    const request = parseServeArgs([], {});
    expect(request).toMatchObject({ scenario: 'default', host: '127.0.0.1', port: 8080, speed: 1, manual: false });
    expect(request.adminToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(parseServeArgs([], {}).adminToken).not.toBe(request.adminToken);
  });

  it('takes the admin token from the flag, else from PERPSIM_ADMIN_TOKEN', () => {
    expect(parseServeArgs(['--admin-token', 'flag'], { PERPSIM_ADMIN_TOKEN: 'env' }).adminToken).toBe('flag');
    expect(parseServeArgs([], { PERPSIM_ADMIN_TOKEN: 'env' }).adminToken).toBe('env');
  });

  it('reads every flag', () => {
    const args = ['--scenario', 'empty', '--seed', '7', '--host', '0.0.0.0', '--port', '0', '--app-port', '9001', '--speed=max'];
    expect(parseServeArgs(args, {})).toMatchObject({ scenario: 'empty', seed: 7, host: '0.0.0.0', port: 0, appPort: 9001, speed: 'max', manual: false });
    expect(parseServeArgs(['--manual'], {})).toMatchObject({ manual: true, speed: 1 });
    expect(parseServeArgs(['--speed', '2.5'], {}).speed).toBe(2.5);
  });

  const cases: [string, string[], RegExp][] = [
    ['a speed that is not a positive number', ['--speed', '0'], /^--speed must be a positive number up to 10000 or "max", got "0"$/],
    ['a speed above the cap', ['--speed', '1000000000'], /^--speed must be a positive number up to 10000 or "max", got "1000000000"$/],
    ['a port out of range', ['--port', '70000'], /^--port must be a port number from 0 to 65535, got "70000"$/],
    ['a value given to --manual', ['--manual=yes'], /^--manual takes no value$/],
    ['--speed with --manual', ['--manual', '--speed', '10'], /^--speed and --manual exclude each other/],
    ['an unknown scenario', ['--scenario', 'nope'], /^scenario "nope" is neither a built-in scenario/],
    ['an unknown option', ['--duration', '1h'], /^unknown option "--duration"/],
  ];
  for (const [what, args, message] of cases) {
    it(`rejects ${what} with exit code 2 and one line`, async () => {
      const errors: string[] = [];
      vi.spyOn(process.stderr, 'write').mockImplementation((text) => errors.push(String(text)) > 0);
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      expect(await main(['serve', ...args])).toBe(2);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.endsWith('\n')).toBe(true);
      expect(errors[0]!.replace(/^perpsim: /, '').trimEnd()).toMatch(message);
    });
  }
});

describe('perpsim serve in process', () => {
  it('serves the default scenario as a live market with demo users one can log in as', async () => {
    const serving = await startServing({ ...parseServeArgs(['--port', '0', '--manual', '--admin-token', 'T'], {}) }, { scryptCost: 1024 });
    try {
      const url = serving.server.url;
      expect(serving.banner).toContain(`REST:             ${url}\n`);
      expect(serving.banner).toContain(`order websocket:  ${serving.server.wsUrl}/orders\n`);
      expect(serving.banner).toContain(`market data ws:   ${serving.server.wsUrl}/md/ws\n`);
      expect(serving.banner).toContain('admin token:      T\n');
      expect(serving.banner).toContain('alice / alice-password (cash 1000000), bob / bob-password (cash 1000000)');
      const bob = await WireExchangePort.connect({ baseUrl: url, username: 'bob', password: 'bob-password', adminToken: 'T' });
      try {
        await bob.admin!.advance(30);
        const books: BookUpdate[] = [];
        bob.onMarketData((m) => m.t === '2' && books.push(m));
        await bob.subscribe('BTCUSD-PERP', 'LEVEL_2');
        await vi.waitFor(() => expect(books.length).toBeGreaterThan(0));
        // The agents quote: market makers put several levels on both sides.
        expect(books[0]!.b.length).toBeGreaterThan(1);
        expect(books[0]!.a.length).toBeGreaterThan(1);
        expect((await bob.riskSnapshot()).cash_balance).toBe('1000000');
      } finally {
        await bob.close();
      }
    } finally {
      await serving.close();
    }
  });
});

describe('perpsim serve stopping', () => {
  afterEach(() => vi.restoreAllMocks());

  it('closes cleanly and returns exit code 0 on SIGTERM', async () => {
    const listeners = process.listenerCount('SIGTERM');
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => out.push(String(text)) > 0);
    const running = serveCommand(parseServeArgs(['--scenario', 'empty', '--port', '0', '--manual']));
    await vi.waitFor(() => expect(out.join('')).toContain('Ctrl-C'), { timeout: 10_000 });
    const url = /^REST: +(\S+)$/m.exec(out.join(''))![1]!;
    process.emit('SIGTERM', 'SIGTERM');
    expect(await running).toBe(0);
    expect(out.join('')).toContain('perpsim serve: SIGTERM, closing\nperpsim serve: stopped\n');
    expect(process.listenerCount('SIGTERM')).toBe(listeners);
    await expect(fetch(`${url}/auth/instruments`)).rejects.toThrow(); // nothing listens any more
  });
});

describe('perpsim serve as a process', () => {
  it('prints its URL, answers over the wire, and exits 0 on SIGINT', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--scenario', 'empty', '--port', '0', '--manual', '--admin-token', 'X'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          const m = /^REST: +(http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
          if (m && stdout.includes('Ctrl-C')) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      expect(url).not.toBe('http://127.0.0.1:0');
      const alice = await WireExchangePort.connect({ baseUrl: url, username: 'alice', password: 'alice-password', adminToken: 'X' });
      const oid = await alice.insertOrder({ symbol: 'BTCUSD-PERP', side: 'B', price: '49000', quantity: 1, timeInForce: 'GTC' });
      expect((await alice.openOrders()).map((o) => o.order_id)).toEqual([oid]);
      const status = await alice.admin!.advance(60);
      expect(status).toEqual({ nowNs: 1_767_225_660_000_000_000n, speed: 1, paused: true });
      await alice.close();
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stdout).toContain('perpsim serve: stopped');
    expect(stderr).toBe('');
  });
});

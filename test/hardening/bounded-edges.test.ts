import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SPEED } from '../../src/api/clock-driver.ts';
import { ADMIN, BTC, startConformance, type Conformance } from '../conformance/harness.ts';

/**
 * The attacks of issue 17 against a real server: each once gave a 500, a crash, a frozen
 * process or an answer without a JSON body. Each must now be a documented error.
 */
let c: Conformance;
beforeAll(async () => {
  c = await startConformance();
});
afterAll(() => c.close());

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('admin clock values are finite and capped', () => {
  it('answers a speed of 1e308, 1e9 or just above the cap with 422 and keeps serving', async () => {
    for (const speed of [1e308, 1e9, MAX_SPEED + 1]) {
      const res = await c.post('/admin/clock/speed', { speed }, ADMIN);
      expect(res.status).toBe(422);
      expect((await res.json()).detail[0]).toMatchObject({ loc: ['body', 'speed'], type: 'value_error' });
    }
    const ok = await c.post('/admin/clock/speed', { speed: MAX_SPEED }, ADMIN);
    expect((await ok.json()).speed).toBe(MAX_SPEED);
    expect((await c.get('/admin/clock', ADMIN)).status).toBe(200);
  });

  it('answers an advance of 1e308, Infinity or beyond a year with 422', async () => {
    for (const seconds of ['1e308', 'Infinity', String(367 * 86_400)]) {
      const res = await c.post('/admin/clock/advance', `{"seconds": ${seconds}}`, ADMIN);
      expect(res.status).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['body', 'seconds']);
    }
  });

  it('serves another client while a long advance runs, and the advance still lands exactly', async () => {
    const clock = c.exchange.clock;
    const startNs = clock.nowNs;
    // A day of one event per sim second, each doing a little work: many slices of wall time.
    let ran = 0;
    const tick = () => {
      let x = 0;
      for (let i = 0; i < 20_000; i++) x += i;
      ran += x > 0 ? 1 : 0;
      clock.scheduleIn(1_000_000_000, tick);
    };
    clock.scheduleIn(1_000_000_000, tick);
    let advanced = false;
    const advance = c.post('/admin/clock/advance', { seconds: 86_400 }, ADMIN).then((r) => {
      advanced = true;
      return r;
    });
    const other = await c.get('/auth/instruments', await c.bearer('bob'));
    expect(other.status).toBe(200);
    expect(advanced).toBe(false); // answered while the advance was still running
    const res = await advance;
    expect(BigInt((await res.json()).now_ns)).toBe(startNs + 86_400_000_000_000n);
    expect(ran).toBe(86_400);
  });
});

describe('deeply nested JSON is refused before it is echoed', () => {
  const routes: [string, Record<string, unknown> | undefined][] = [
    ['/auth/get_user_token', undefined],
    ['/orders/insert_order', undefined],
    ['/settlement/get_mtm_prices', undefined],
    ['/candle/historical_candles', undefined],
    ['/admin/users', ADMIN],
  ];
  it.each(routes)('POST %s with 5,000 nested arrays in a field is a 422 json_invalid without the input', async (path, headers) => {
    const auth: Record<string, string> = headers === undefined ? await c.bearer() : (headers as Record<string, string>);
    const res = await c.post(path, `{"username": ${nested(5000)}, "symbol": ${nested(5000)}}`, auth);
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.detail).toEqual([expect.objectContaining({ type: 'json_invalid', input: {} })]);
  });

  it('answers a 5,000-deep t on the order socket and type on the market-data socket with a 400 envelope', async () => {
    const orders = await c.socket('/orders');
    orders.send(`{"rid": 1, "t": ${nested(5000)}}`);
    expect(await orders.next()).toEqual({ rid: null, err: { code: 400, msg: expect.stringMatching(/nest/) } });
    const md = await c.socket('/md/ws');
    md.send(`{"request_id": 1, "type": {"a": ${nested(5000)}}}`);
    expect(await md.next()).toEqual({ request_id: null, error: { code: 400, message: expect.stringMatching(/nest/) } });
    orders.send({ rid: 2, t: { deep: [[1]] } });
    expect(await orders.next()).toEqual({ rid: 2, err: { code: 400, msg: 'unknown request type an object' } });
  });
});

describe('dates outside RFC 3339 years are 422', () => {
  it.each([
    ['1e308', '1e308'],
    ['-1e308', '-1e308'],
    ['a 310-digit number', '1' + '0'.repeat(309)],
    ['a 310-digit numeric string', '"1' + '0'.repeat(309) + '"'],
    ['1e16 (milliseconds past 9999)', '1e16'],
  ])('start_time %s on settlement and candles', async (t, raw) => {
    for (const [path, key] of [
      ['/settlement/get_mtm_prices', 'symbol'],
      ['/settlement/get_funding_rates', 'symbol'],
      ['/candle/historical_candles', 'market'],
    ] as const) {
      const extra = key === 'market' ? ', "interval": "1m"' : '';
      const res = await c.post(path, `{"${key}": "${BTC}"${extra}, "start_time": ${raw}, "end_time": "2026-01-02T00:00:00Z"}`);
      expect(res.status, `${path} ${t}`).toBe(422);
      expect((await res.json()).detail[0].loc).toEqual(['body', 'start_time']);
    }
  });
});

describe('errors below the routes still answer JSON', () => {
  /** Sends raw bytes and returns the raw response text. */
  const raw = (text: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(c.server.port, '127.0.0.1', () => socket.write(text));
      let out = '';
      socket.on('data', (d) => (out += d.toString()));
      socket.on('end', () => resolve(out));
      socket.on('error', reject);
    });

  it('answers a malformed request line with 400 and a JSON detail', async () => {
    const out = await raw('GE T / HTTP/1.1\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1\.1 400 /);
    expect(out).toMatch(/Content-Type: application\/json/);
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'Bad Request' });
  });

  it('answers oversized headers with 431 and a JSON detail', async () => {
    const out = await raw(`GET /auth/instruments HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(out).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'Request Header Fields Too Large' });
  });

  it('logs nothing when a client aborts an upload halfway, and keeps serving', async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      await new Promise<void>((resolve) => {
        const socket = net.connect(c.server.port, '127.0.0.1', () => {
          socket.write('POST /auth/get_user_token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"username": "al');
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 50);
        });
      });
      const after = await c.get('/auth/instruments', await c.bearer());
      expect(after.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      console.error = original;
    }
    expect(errors).toEqual([]);
  });
});

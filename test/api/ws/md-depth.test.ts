import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_MARKET_DATA_DEPTH as MAX_DEPTH } from '../../../src/wire/market-data.ts';
import { bookUpdate } from '../../../src/venue/wire-forms.ts';
import { rest, startFixture, type Fixture, type Msg, type TestSocket } from './helpers.ts';

/**
 * `depth` on market-data subscribe (an extension), over real sockets: with it a book update has
 * the first `depth` levels a side, byte for byte what the full update has there; without it
 * every level as before; an update that changes nothing within the depth is not sent; bad
 * values are a 400 envelope.
 */

let fx: Fixture;
beforeEach(async () => {
  fx = await startFixture();
});
afterEach(async () => {
  await fx.close();
});

const BTC = 'BTCUSD-PERP';

/** A subscribed socket (stats and snapshot taken), and the snapshot's raw text. */
async function subscribe(level: string, depth?: unknown): Promise<{ ws: TestSocket; snapshot: string }> {
  const ws = await fx.mdSocket();
  const request: Msg = { request_id: 1, type: 'subscribe', symbol: BTC, level };
  if (depth !== undefined) request.depth = depth;
  const reply = await ws.request(request, 'request_id');
  expect(reply).toEqual({ request_id: 1, result: depth === undefined || depth === null ? { subscribed: BTC } : { subscribed: BTC, depth } });
  expect((await ws.next()).t).toBe('s');
  const { raw } = await ws.nextRaw((m) => m.t === level.slice(-1));
  return { ws, snapshot: raw };
}

/** The full update's text cut to `depth` levels a side, as JSON.stringify writes it. */
function cut(fullText: string, depth: number): string {
  const full = JSON.parse(fullText) as Msg;
  return JSON.stringify({ ...full, b: full.b.slice(0, depth), a: full.a.slice(0, depth) });
}

describe('market-data subscribe with depth', () => {
  beforeEach(() => {
    // Five bids and five asks, two orders at the best bid (for LEVEL_3).
    for (let i = 0; i < 5; i++) {
      rest(fx.exchange, 'bob', 'B', 1 + i, String(49_990 - 10 * i));
      rest(fx.exchange, 'bob', 'S', 1 + i, String(50_010 + 10 * i));
    }
    rest(fx.exchange, 'bob', 'B', 7, '49990');
  });

  it('sends the first depth levels a side, the same bytes the full book has there', async () => {
    const full = await subscribe('LEVEL_2');
    const two = await subscribe('LEVEL_2', 2);
    expect(JSON.parse(full.snapshot).b).toHaveLength(5);
    expect(JSON.parse(two.snapshot).b.map((l: Msg) => l.p)).toEqual(['49990', '49980']);
    expect(two.snapshot).toBe(cut(full.snapshot, 2));
    // And the wire's full update is still bookUpdate's JSON, all levels.
    const m = JSON.parse(full.snapshot) as Msg;
    expect(full.snapshot).toBe(JSON.stringify(bookUpdate(fx.exchange.venue.market(BTC)!, 'LEVEL_2', m.ts, m.tn)));

    rest(fx.exchange, 'alice', 'B', 3, '49995'); // a new best bid: both see it
    const nextFull = (await full.ws.nextRaw((x) => x.t === '2')).raw;
    const nextTwo = (await two.ws.nextRaw((x) => x.t === '2')).raw;
    expect(nextTwo).toBe(cut(nextFull, 2));
    expect(JSON.parse(nextTwo).b.map((l: Msg) => l.p)).toEqual(['49995', '49990']);
  });

  it('skips an update that changes nothing within the depth', async () => {
    const full = await subscribe('LEVEL_2');
    const one = await subscribe('LEVEL_2', 1);
    rest(fx.exchange, 'alice', 'S', 2, '50100'); // far from the touch
    const far = JSON.parse((await full.ws.nextRaw((x) => x.t === '2')).raw) as Msg;
    expect(far.a).toHaveLength(6);
    rest(fx.exchange, 'alice', 'S', 1, '50005'); // a new best ask
    const touch = JSON.parse((await one.ws.nextRaw((x) => x.t === '2')).raw) as Msg;
    expect(touch.a).toEqual([{ p: '50005', q: 1 }]); // the far change was never sent to depth 1
    expect(await one.ws.drain(50)).toEqual([]);
  });

  it('limits LEVEL_3 too, with each level\'s queue', async () => {
    const three = await subscribe('LEVEL_3', 1);
    expect(JSON.parse(three.snapshot).b).toEqual([{ p: '49990', q: 8, o: [1, 7] }]);
    expect(JSON.parse(three.snapshot).a).toEqual([{ p: '50010', q: 1, o: [1] }]);
  });

  it('treats depth null as absent, and depth on LEVEL_1 as the one level it has', async () => {
    const none = await subscribe('LEVEL_2', null);
    expect(JSON.parse(none.snapshot).b).toHaveLength(5);
    const l1 = await subscribe('LEVEL_1', 3);
    expect(JSON.parse(l1.snapshot).b).toEqual([{ p: '49990', q: 8 }]);
  });

  it('refuses a depth that is not an integer from 1 to the maximum with a 400 envelope, and stays open', async () => {
    const ws = await fx.mdSocket();
    for (const depth of [0, -1, 1.5, '2', true, [], {}, MAX_DEPTH + 1, Number.MAX_SAFE_INTEGER + 2]) {
      const reply = await ws.request({ request_id: 7, type: 'subscribe', symbol: BTC, level: 'LEVEL_2', depth }, 'request_id');
      expect(reply).toEqual({ request_id: 7, error: { code: 400, message: `depth must be an integer from 1 to ${MAX_DEPTH}` } });
    }
    expect(ws.isOpen).toBe(true);
    const ok = await ws.request({ request_id: 8, type: 'subscribe', symbol: BTC, level: 'LEVEL_2', depth: MAX_DEPTH }, 'request_id');
    expect(ok).toEqual({ request_id: 8, result: { subscribed: BTC, depth: MAX_DEPTH } });
  });

  it('unsubscribes a depth subscription', async () => {
    const two = await subscribe('LEVEL_2', 2);
    expect(await two.ws.request({ request_id: 2, type: 'unsubscribe', symbol: BTC }, 'request_id')).toEqual({ request_id: 2, result: { unsubscribed: BTC } });
    rest(fx.exchange, 'alice', 'B', 3, '49995');
    expect((await two.ws.drain(50)).filter((m) => m.t === '2')).toEqual([]);
  });
});

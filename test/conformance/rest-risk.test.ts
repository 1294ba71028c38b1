import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTC, expect422, expectDetail, expectShape, insertOrder, startConformance, type Conformance, type FieldType } from './harness.ts';

/**
 * The two risk snapshots: user-based (GET /risk_manager/risk_snapshot, positions) and
 * token-based (GET {app_url}/api/risk-snapshot, risk_snapshot with per_symbol). The /api half is
 * served on its own port here (`appPort`), as `--app-port` does, so {app_url} is really used.
 */

const POSITION_SNAPSHOT: Record<string, FieldType> = {
  timestamp: 'datetime',
  username: 'string',
  positions: 'array',
  cash_balance: 'decimal',
  total_realized_pnl: 'decimal',
  total_unrealized_pnl: 'decimal',
  total_initial_margin: 'decimal',
  total_maintenance_margin: 'decimal',
  total_equity: 'decimal',
  available_initial_margin: 'decimal',
  available_maintenance_margin: 'decimal',
};

const POSITION: Record<string, FieldType> = {
  symbol: 'string',
  net_quantity: 'int-string',
  buy_quantity: 'int-string',
  buy_notional: 'decimal',
  realized_pnl: 'decimal',
  sell_quantity: 'int-string',
  sell_notional: 'decimal',
  buy_vwap: 'decimal',
  sell_vwap: 'decimal',
  unrealized_pnl: 'decimal',
  initial_margin: 'decimal',
  maintenance_margin: 'decimal',
  mark_price: 'decimal',
};

const API_SNAPSHOT: Record<string, FieldType> = {
  balance_usd: 'decimal',
  equity: 'decimal',
  initial_margin_available: 'decimal',
  initial_margin_required_for_open_orders: 'decimal',
  initial_margin_required_for_positions: 'decimal',
  initial_margin_required_total: 'decimal',
  maintenance_margin_available: 'decimal',
  maintenance_margin_required: 'decimal',
  per_symbol: 'object',
  timestamp_ns: 'datetime',
  unrealized_pnl: 'decimal',
  user_id: 'uuid',
};

/** Fields inside per_symbol (not shown in the document; README lists them). */
const PER_SYMBOL: Record<string, FieldType> = {
  net_quantity: 'int-string',
  mark_price: 'decimal',
  average_entry_price: 'decimal',
  unrealized_pnl: 'decimal',
  realized_pnl: 'decimal',
  initial_margin: 'decimal',
  maintenance_margin: 'decimal',
  open_orders: 'integer',
  initial_margin_required_for_open_orders: 'decimal',
};

let c: Conformance;
let alice: Record<string, string>;
beforeAll(async () => {
  c = await startConformance({ appPort: 0 });
  alice = await c.bearer('alice');
  const bob = await c.bearer('bob');
  // alice: long 2 BTC at 50000 from bob, plus one resting bid.
  expect((await c.post('/orders/insert_order', insertOrder({ username: 'bob', side: 'S', price: '50000', quantity: 2 }), bob)).status).toBe(200);
  expect((await c.post('/orders/insert_order', insertOrder({ side: 'B', price: '50000', quantity: 2, time_in_force: 'IOC' }), alice)).status).toBe(200);
  expect((await c.post('/orders/insert_order', insertOrder({ side: 'B', price: '49000', quantity: 1 }), alice)).status).toBe(200);
});
afterAll(() => c.close());

describe('GET /risk_manager/risk_snapshot', () => {
  it('answers the position-based snapshot with every top-level field and its type', async () => {
    const res = await c.get('/risk_manager/risk_snapshot?username=alice', alice);
    expect(res.status).toBe(200);
    const snap = await res.json();
    expectShape(snap, POSITION_SNAPSHOT);
    expect(snap).toMatchObject({ username: 'alice', timestamp: '2026-01-01T00:00:00.000000000Z', cash_balance: '999980' });
  });

  it('lists each position with every field of the position table, all strings', async () => {
    const snap = await (await c.get('/risk_manager/risk_snapshot?username=alice', alice)).json();
    expect(snap.positions).toHaveLength(1);
    expectShape(snap.positions[0], POSITION);
    expect(snap.positions[0]).toMatchObject({ symbol: BTC, net_quantity: '2', buy_quantity: '2', buy_notional: '100000', buy_vwap: '50000', sell_quantity: '0' });
  });

  it('requires the username query parameter (422 at ["query", "username"])', async () => {
    await expect422(await c.get('/risk_manager/risk_snapshot', alice), [[['query', 'username'], 'missing']]);
  });

  it('answers another user\'s name with 403 and no token with 401', async () => {
    await expectDetail(await c.get('/risk_manager/risk_snapshot?username=bob', alice), 403);
    await expectDetail(await c.get('/risk_manager/risk_snapshot?username=alice'), 401);
  });
});

describe('GET {app_url}/api/risk-snapshot', () => {
  it('is served on {app_url}, not on {base_url}', async () => {
    expect(c.server.appUrl).not.toBe(c.server.url);
    expect((await c.get('/api/risk-snapshot', alice)).status).toBe(404);
  });

  it('answers exactly risk_snapshot: an object with every field of the table and its type', async () => {
    const res = await c.get('/api/risk-snapshot', alice, 'appUrl');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['risk_snapshot']);
    expectShape(body.risk_snapshot, API_SNAPSHOT);
    expect(body.risk_snapshot).toMatchObject({ balance_usd: '999980', timestamp_ns: '2026-01-01T00:00:00.000000000Z' });
  });

  it('keys per_symbol by symbol, each with its position and open-order figures', async () => {
    const { risk_snapshot: snap } = await (await c.get('/api/risk-snapshot', alice, 'appUrl')).json();
    expect(Object.keys(snap.per_symbol)).toEqual([BTC]);
    expectShape(snap.per_symbol[BTC], PER_SYMBOL);
    expect(snap.per_symbol[BTC]).toMatchObject({ net_quantity: '2', average_entry_price: '50000', open_orders: 1 });
  });

  it('needs Authorization: Bearer <token> (401 without)', async () => {
    await expectDetail(await c.get('/api/risk-snapshot', {}, 'appUrl'), 401);
  });
});

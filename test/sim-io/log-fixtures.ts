import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Account } from '../../src/venue/account.ts';
import type { Market } from '../../src/venue/market.ts';
import type { Venue } from '../../src/venue/venue.ts';

/** Temporary folders named `prefix…`, removed together by `removeAll` (call it from `afterAll`). */
export function tempDirs(prefix: string): { newDir: () => string; removeAll: () => void } {
  const dirs: string[] = [];
  return {
    newDir: () => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    removeAll: () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })),
  };
}

/**
 * The rows both writer tests script at one instant: five resting bids and an IOC that trades
 * through them, rows read from wire feeds (a symbol first seen mid-run, a price off the grid,
 * an unknown order) and an index change.
 */
export function scriptWireFeedRows(v: Venue, alice: Account, bob: Account, btc: Market): void {
  for (let i = 0; i < 5; i++) v.placeOrderTicks(alice, btc, 'B', 99_990 - i, 3);
  v.placeOrderTicks(bob, btc, 'S', 99_980, 7, 'IOC');
  v.placeOrder(bob, { symbol: 'XYZ-PERP', price: '1.23', quantity: 1, side: 'S', timeInForce: 'GTC', postOnly: false });
  v.placeOrder(bob, { symbol: 'BTCUSD-PERP', price: '50000.25', quantity: 1, side: 'S', timeInForce: 'GTC', postOnly: false });
  v.cancelOrder(bob, 'O-NOSUCHORDER');
  v.setIndexPrice(btc, 100_010);
}

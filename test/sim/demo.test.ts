import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/sim/demo.ts';

describe('the demo market (npm start)', () => {
  // Two 9-hour demo days (funding settles at 08:00): ~36 s alone, more beside other suites on 2 cores.
  it('trades, settles funding, and reproduces its state hash for a seed', { timeout: 180_000 }, () => {
    const a = runDemo(7, 9 * 3600);
    const b = runDemo(7, 9 * 3600);
    expect(a.trades).toBeGreaterThan(1000);
    expect(a.fundingSettlements).toBe(2); // 08:00 UTC, once per market
    expect(a.feeds['n']).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });

  it('gives a different market for a different seed', () => {
    expect(runDemo(8, 3600).stateHash).not.toBe(runDemo(7, 3600).stateHash);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliInProcess, tempDir } from './cli-helpers.ts';

const tmp = tempDir('perpsim-latency-flags-');
afterAll(() => tmp.remove());

/** A strategy that buys one lot at the ask with an IOC as soon as it sees a two-sided book. */
const TAKER = `export default () => ({
  async onStart(port) {
    const [inst] = await port.instruments();
    let sent = false;
    port.onMarketData((m) => {
      if (sent || !m.b?.length || !m.a?.length) return;
      sent = true;
      void port.insertOrder({ symbol: inst.symbol, price: m.a[0].p, quantity: 1, side: 'B', timeInForce: 'IOC' });
    });
    await port.subscribe(inst.symbol, 'LEVEL_1');
  },
});
`;

/** The time column of the first fill in fills.csv. */
function firstFillTime(dir: string): string {
  const [header, first] = readFileSync(join(dir, 'fills.csv'), 'utf8').split('\n');
  const t = first!.split(',')[header!.split(',').indexOf('time')]!;
  return t;
}

describe('backtest --latency-file and --latency-activity', () => {
  writeFileSync(join(tmp.dir, 'taker.js'), TAKER);
  const strategy = join(tmp.dir, 'taker.js');
  const backtest = (out: string, ...flags: string[]) => cliInProcess('backtest', strategy, '--scenario', 'default', '--duration', '3s', '--out', join(tmp.dir, out), ...flags);

  it('delays the strategy’s order by the recorded latency the file gives', async () => {
    // A flat 700 ms each way: the order reaches the venue ≥ 700 ms after it was sent.
    writeFileSync(join(tmp.dir, 'slow.csv'), 'ts,latency_ns\n0,700000000\n');
    const slow = await backtest('slow', '--latency-file', join(tmp.dir, 'slow.csv'));
    expect(slow.code, slow.stderr).toBe(0);
    const fast = await backtest('fast');
    expect(fast.code, fast.stderr).toBe(0);
    // Before its order the strategy makes three trips of the order path: instruments (there and
    // back) and subscribe (there); the order is the fourth. The default latency is about 1 ms a
    // leg, the file's 700 ms: 4 × 700 ms plus the market data's own small delay.
    expect(ms(firstFillTime(join(tmp.dir, 'fast')))).toBeLessThan(100);
    const slowMs = ms(firstFillTime(join(tmp.dir, 'slow')));
    expect(slowMs).toBeGreaterThanOrEqual(2800);
    expect(slowMs).toBeLessThan(2900);
  }, 120_000); // a guard for a loaded machine, not a timing assertion

  it('runs with an activity latency', async () => {
    const r = await backtest('busy', '--latency-activity', '1ms,1ms,1s,400ms');
    expect(r.code, r.stderr).toBe(0);
    expect(ms(firstFillTime(join(tmp.dir, 'busy')))).toBeGreaterThan(1);
  }, 60_000);

  const bad: [string, string[], RegExp][] = [
    ['both models', ['--latency-file', 'x.csv', '--latency-activity', '1ms,1us,1s'], /^--latency-file and --latency-activity exclude each other/],
    ['a missing file', ['--latency-file', join(tmp.dir, 'none.csv')], /^--latency-file: no such file .*none\.csv$/],
    ['a file without the columns', ['--latency-file', join(tmp.dir, 'cols.csv')], /^--latency-file: .*cols\.csv: the header must name the columns ts and latency_ns$/],
    ['an activity of two terms', ['--latency-activity', '1ms,1us'], /^--latency-activity must be base,per-message,window\[,cap\]/],
    ['an activity with a zero window', ['--latency-activity', '1ms,1us,0'], /^--latency-activity must be base,per-message,window\[,cap\]/],
  ];
  writeFileSync(join(tmp.dir, 'cols.csv'), 'time,latency\n1,2\n');
  for (const [what, flags, message] of bad) {
    it(`refuses ${what} in one line with exit code 2`, async () => {
      const r = await backtest('bad', ...flags);
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]!.replace(/^perpsim: /, '')).toMatch(message);
    });
  }
});

/** Milliseconds into the minute of an RFC 3339 time (the runs are 3 s long from a whole minute). */
function ms(t: string): number {
  expect(t).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}/);
  return Number(t.slice(17, 19)) * 1000 + Number(t.slice(20, 23));
}

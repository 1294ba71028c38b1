import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PINNED, runPinned } from '../../bench/replay-fidelity.ts';
import { convertCommand } from '../../src/cli/convert-command.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-fidelity-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const pinned = (name: string) => PINNED.find((p) => p.name === name)!;

/**
 * The speed work on the replay (issue 10) must not change what a replay computes: these are the
 * whole BTCUSDT capture's backtests, pinned to the values measured before it (the 10× ones are
 * pinned in bench/replay-fidelity.ts: too long for the suite).
 */
describe('a replay backtest of the real BTCUSDT capture keeps its state hash, fills and PnL', () => {
  it('doing nothing: state hash 9d66c0a0d80d2d86, no fill, the starting account', async () => {
    const c = pinned('do-nothing raw 1×');
    expect(await runPinned(c.file, false)).toEqual(c.want);
  }, 60_000);

  it('with the example market maker: 361 fills, the same fills and final account, state hash 657214684e03840e', async () => {
    const c = pinned('market maker raw 1×');
    expect(await runPinned(c.file, true)).toEqual(c.want);
  }, 60_000);

  it('with the example market maker on the Arrow conversion of the capture: the same as on the capture', async () => {
    const c = pinned('market maker raw 1×');
    // Named like the capture: the replay's scenario (which the state hash covers) is named after the file.
    const arrow = join(tmp, 'btcusdt_20240808.arrow');
    const write = process.stdout.write;
    process.stdout.write = () => true;
    try {
      expect(await convertCommand({ inputs: [c.file], to: 'arrow', out: arrow, tickSize: '0.1', lotSize: '0.001', skipBadRows: false })).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(await runPinned(arrow, true)).toEqual(c.want);
  }, 60_000);
});

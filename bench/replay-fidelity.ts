/**
 * Replay fidelity (`npx tsx bench/replay-fidelity.ts [case filters]`): the BTCUSDT capture's
 * replay backtests whose state hash, fills and PnL the speed work must not change (issue 10,
 * "same fidelity"), each run once and compared with the values pinned below; exit 1 when one
 * differs. The 1× cases are also pinned by test/replay/replay-fidelity.test.ts; the 10× ones
 * (tens of seconds each) only here. Inputs: the 10× capture and its Arrow conversion as
 * `bench/replay-speed.ts` builds them (run it once first).
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Fnv1a64 } from '../src/core/hash.ts';
import type { BacktestResult } from '../src/backtest/runner.ts';

/** What a replay must keep: the state hash, the fills (count and a digest of every field) and the final account. */
export interface Fidelity {
  stateHash: string;
  fills: number;
  fillsDigest: string;
  final: Record<string, string>;
}

export function fidelityOf(result: BacktestResult): Fidelity {
  const text = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
  const digest = new Fnv1a64();
  for (const f of result.fills) digest.update(text(f));
  const final = Object.fromEntries(Object.entries(result.final).map(([k, v]) => [k, v.toString()]));
  return { stateHash: result.stateHash, fills: result.fills.length, fillsDigest: digest.hex(), final };
}

const ROOT = join(import.meta.dirname, '..');
const CAPTURE = join(ROOT, '../shared/data/hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz');
const X10 = join(tmpdir(), 'perpsim-replay-speed', 'x10', 'btcusdt_20240808.gz');
const NO_FILLS = { fills: 0, fillsDigest: new Fnv1a64().hex() };
const MM_10X_FINAL = { tradingPnl: '-30725800000000000000', fees: '0', funding: '-380420983707133720', unrealized: '7000000000000000', cash: '999968893779016292866280', equity: '999968900779016292866280' };
const FLAT = { tradingPnl: '0', fees: '0', funding: '0', unrealized: '0', cash: '1000000000000000000000000', equity: '1000000000000000000000000' };

/** The pinned cases (values as measured at the start of round 7, 8e28611). */
export const PINNED: { name: string; file: string; mm: boolean; want: Fidelity }[] = [
  { name: 'do-nothing raw 1×', file: CAPTURE, mm: false, want: { stateHash: '9d66c0a0d80d2d86', ...NO_FILLS, final: FLAT } },
  { name: 'market maker raw 1×', file: CAPTURE, mm: true, want: { stateHash: '657214684e03840e', fills: 361, fillsDigest: 'c882e4ba5857fd98', final: { tradingPnl: '-2366000000000000000', fees: '0', funding: '-380420983707133720', unrealized: '17300000000000000', cash: '999997253579016292866280', equity: '999997270879016292866280' } } },
  { name: 'do-nothing raw 10×', file: X10, mm: false, want: { stateHash: '00cb84cee09c441f', ...NO_FILLS, final: FLAT } },
  { name: 'do-nothing arrow 10×', file: X10.replace(/\.gz$/, '.arrow'), mm: false, want: { stateHash: '00cb84cee09c441f', ...NO_FILLS, final: FLAT } },
  { name: 'market maker raw 10×', file: X10, mm: true, want: { stateHash: 'd0ee89cecec2d13d', fills: 3618, fillsDigest: '1d61de0d936a78a3', final: MM_10X_FINAL } },
  { name: 'market maker arrow 10×', file: X10.replace(/\.gz$/, '.arrow'), mm: true, want: { stateHash: 'd0ee89cecec2d13d', fills: 3618, fillsDigest: '1d61de0d936a78a3', final: MM_10X_FINAL } },
];

/** One pinned case's replay backtest (`perpsim backtest --replay FILE` with the market maker or nothing). */
export async function runPinned(file: string, mm: boolean): Promise<Fidelity> {
  const { replayScenario } = await import('../src/replay/l2/replay-scenario.ts');
  const { runBacktest } = await import('../src/backtest/runner.ts');
  const { scenario } = await replayScenario({ files: [file] });
  const symbol = scenario.instruments[0]!.symbol;
  const { default: marketMaker, paramsSchema } = await import('../examples/market-maker.ts');
  const strategy = mm ? marketMaker(paramsSchema.parse({ symbol })) : { async onStart() {} };
  return fidelityOf(await runBacktest(strategy, { scenario }));
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  let failed = 0;
  for (const c of PINNED.filter((p) => only.length === 0 || only.some((o) => p.name.includes(o)))) {
    if (!existsSync(c.file)) {
      console.log(`${c.name}: no ${c.file} (run bench/replay-speed.ts first)`);
      continue;
    }
    const got = await runPinned(c.file, c.mm);
    const same = JSON.stringify(got) === JSON.stringify(c.want);
    if (!same) failed++;
    console.log(`${c.name}: ${same ? 'same' : 'CHANGED'} ${JSON.stringify(got)}`);
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

if (import.meta.filename === process.argv[1]) await main();

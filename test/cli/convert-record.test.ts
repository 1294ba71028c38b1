import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { ArrowReplaySource } from '../../src/replay/arrow-source.ts';
import type { MarketRecord } from '../../src/replay/market-records.ts';
import { tardisRecords } from '../../src/replay/normalize.ts';
import { readTardisCsv } from '../../src/replay/tardis-csv.ts';
import { sharedFolder } from '../replay/shared-data.ts';
import { perpsim, tempDir } from './cli-helpers.ts';

const tmp = tempDir('perpsim-convert-');
afterAll(() => tmp.remove());

/** Runs the CLI in-process (a spawn costs seconds of start-up): exit code and captured output. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((stdout += String(t)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((t) => ((stderr += String(t)), true));
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

async function all(items: AsyncIterable<MarketRecord>): Promise<MarketRecord[]> {
  const out: MarketRecord[] = [];
  for await (const r of items) out.push(r);
  return out;
}

const HEADER = 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount';
const trades = [
  HEADER,
  'bitmex,XBTUSD,1583020803145000,1583020803307160,a1,sell,8531.5,2000',
  'bitmex,XBTUSD,1583020803145000,1583020803307160,a2,buy,8532,50',
  'bitmex,XBTUSD,1583020803200000,1583020803400000,a3,buy,85x1,10',
  'bitmex,XBTUSD,1583020803276000,1583020803500000,a4,unknown,8531,1',
].join('\n');

describe('perpsim convert', () => {
  it('converts a tardis CSV to Arrow and (through the perpsim binary) the Arrow to CSV, with decimal prices in the CSV', async () => {
    const good = join(tmp.dir, 'trades.csv');
    writeFileSync(good, trades.split('\n').filter((l) => !l.includes('85x1')).join('\n') + '\n');
    const arrow = join(tmp.dir, 'trades.arrow');
    const r1 = await cli('convert', good, '--to', 'arrow', '--out', arrow, '--tick-size', '0.5', '--lot-size', '1');
    expect(r1).toMatchObject({ code: 0, stdout: `wrote 3 records to ${arrow}\n` });
    const direct = await all(tardisRecords(readTardisCsv(good, { tickSize: '0.5', lotSize: '1' })));
    expect(await all(new ArrowReplaySource(arrow).records())).toEqual(direct);
    const csv = join(tmp.dir, 'trades-out.csv');
    const r2 = await perpsim(tmp.dir, 'convert', arrow, '--to', 'csv', '--out', csv);
    expect(r2.code).toBe(0);
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]!.split(',').slice(0, 9)).toEqual(['recv_ns', 'exch_ns', 'symbol', 'kind', 'reset', 'side', 'price', 'qty', 'trade_id']);
    expect(lines[1]!.split(',').slice(0, 9)).toEqual(['1583020803307160000', '1583020803145000000', 'XBTUSD', 'trade', '', 'S', '8531.5', '2000', 'a1']);
    expect(lines[3]!.split(',').slice(3, 9)).toEqual(['trade', '', '', '8531', '1', 'a4']);
  });

  it('names file, line and column of a bad row, or counts it with --skip-bad-rows', async () => {
    const bad = join(tmp.dir, 'bad-trades.csv');
    writeFileSync(bad, trades + '\n');
    const out = join(tmp.dir, 'bad.arrow');
    const failed = await cli('convert', bad, '--to', 'arrow', '--out', out, '--tick-size', '0.5', '--lot-size', '1');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(`perpsim: ${bad}:4 column 7 (price): "85x1" is not a non-negative decimal price\n`);
    const skipped = await cli('convert', bad, '--to', 'arrow', '--out', out, '--tick-size', '0.5', '--lot-size', '1', '--skip-bad-rows');
    expect(skipped.code).toBe(0);
    expect(skipped.stdout).toBe(`wrote 3 records to ${out}\nskipped 1 bad rows (first: ${bad}:4 column 7 (price): "85x1" is not a non-negative decimal price)\n`);
  });

  it('refuses bad command lines with one line and exit code 2', async () => {
    const cases: [string[], string][] = [
      [['convert', '--to', 'arrow', '--out', 'x.arrow'], "missing required argument 'inputs'"],
      [['convert', 'a.csv', '--to', 'parquet', '--out', 'x'], '--to must be arrow or csv, got "parquet"'],
      [['convert', 'a.csv', '--to', 'csv'], "required option '--out <file>' not specified"],
      [['convert', 'a.csv', '--to', 'csv', '--out', 'x', '--from', 'kdb'], '--from must be one of'],
      [['record', '--symbols', 'BTCUSD-PERP', '--out', 'x.arrow'], "required option '--url <ws-url>' not specified"],
      [['record', '--url', 'ws://127.0.0.1:1/md/ws', '--symbols', 'A', '--out', 'x.arrow', '--level', 'LEVEL_3'], '--level must be LEVEL_1 or LEVEL_2'],
    ];
    const results = [];
    for (const [args] of cases) results.push(await cli(...args));
    results.forEach((r, i) => {
      expect(r.code, cases[i]![0].join(' ')).toBe(2);
      expect(r.stderr.split('\n')).toHaveLength(2); // one line and the final newline
      expect(r.stderr).toContain(cases[i]![1]);
    });
  });

  it('says which input needs units, and fails cleanly when the server is not there', async () => {
    const good = join(tmp.dir, 'units.csv');
    writeFileSync(good, HEADER + '\n');
    const units = await cli('convert', good, '--to', 'csv', '--out', join(tmp.dir, 'u.csv'));
    expect(units).toMatchObject({ code: 1, stderr: `perpsim: ${good}: tardis prices and sizes are decimal text and UNITS has no known units: give --tick-size and --lot-size\n` });
    const offline = await cli('record', '--url', 'ws://127.0.0.1:9/md/ws', '--symbols', 'A', '--out', join(tmp.dir, 'r.arrow'), '--tick-size', '1');
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(/^perpsim: cannot connect to ws:\/\/127\.0\.0\.1:9\/md\/ws/);
  });
});

const tardis = sharedFolder('tardis-nautilus-samples', 'perpsim convert on the real tardis samples');
describe.skipIf(tardis.missing)(tardis.title, () => {
  it('merges quotes and trades of one symbol by receive time into one file', async () => {
    const dir = join(tardis.dir, '2020-02-22_binance-futures_BTCUSDT');
    const out = join(tmp.dir, 'merged.arrow');
    const r = await cli('convert', join(dir, 'quotes.csv'), join(dir, 'trades.csv'), '--to', 'arrow', '--out', out, '--tick-size', '0.01', '--lot-size', '0.001');
    expect(r).toMatchObject({ code: 0, stdout: `wrote 19998 records to ${out}\n` });
    const records = await all(new ArrowReplaySource(out).records());
    expect(records.filter((x) => x.kind === 'quote')).toHaveLength(9999);
    expect(records.every((x, i) => i === 0 || records[i - 1]!.recvNs <= x.recvNs)).toBe(true);
  });
});

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { MarketArrowWriter } from '../../src/replay/market-arrow.ts';
import { MarketCsvWriter } from '../../src/replay/market-csv.ts';
import { ReplayError } from '../../src/replay/replay-error.ts';
import { sniffFile, type SniffedFormat } from '../../src/replay/sniff.ts';
import { SHARED_DATA } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-sniff-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const D = SHARED_DATA;
/** Every recording in ../shared/data, the format its content says, and the symbol its first line names. */
const SHARED: [string, SniffedFormat, string | undefined][] = [
  ['hftbacktest-binance-futures-raw/usdm/btcusdt_20240808.gz', 'binance-raw', 'BTCUSDT'],
  ['hftbacktest-binance-futures-raw/usdm/ethusdt_20240808.gz', 'binance-raw', 'ETHUSDT'],
  ['hftbacktest-binance-futures-raw/cm/btcusd_perp_20240808.gz', 'binance-raw', 'BTCUSD_PERP'],
  ['binance-futures-bookticker/BTCUSDT-bookTicker-2023-10-02-short.csv', 'binance-bookticker', undefined],
  ['binance-futures-depth-nautilus/btcusdt-depth-snap.csv', 'binance-depth', 'BTCUSDT'],
  ['binance-futures-depth-nautilus/btcusdt-depth-update.csv', 'binance-depth', 'BTCUSDT'],
  ['bybit-orderbook-nautilus/xrpusdt-ob500.data.zip', 'bybit-orderbook', 'XRPUSDT'],
  ['freqtrade-binance-futures-funding/XRP_USDT_USDT-1h-mark.json', 'freqtrade-mark', undefined],
  ['freqtrade-binance-futures-funding/XRP_USDT_USDT-8h-funding_rate.json', 'freqtrade-funding', undefined],
  ['lobster-sample/LOBSTER_SampleFile_AMZN_2012-06-21_1.zip', 'lobster-zip', undefined],
  ['lobster-sample/LOBSTER_SampleFile_GOOG_2012-06-21_10.zip', 'lobster-zip', undefined],
  ['tardis-nautilus-samples/2020-02-22_binance-futures_BTCUSDT/quotes.csv', 'tardis', 'BTCUSDT'],
  ['tardis-nautilus-samples/2020-02-22_binance-futures_BTCUSDT/trades.csv', 'tardis', 'BTCUSDT'],
  ['tardis-nautilus-samples/binance-futures_book_snapshot_25_BTCUSDT.csv', 'tardis', 'BTCUSDT'],
  ['tardis-nautilus-samples/binance-futures_book_snapshot_5_BTCUSDT.csv', 'tardis', 'BTCUSDT'],
  ['tardis-nautilus-samples/bitmex_trades_XBTUSD.csv', 'tardis', 'XBTUSD'],
  ['tardis-nautilus-samples/deribit_incremental_book_L2_BTC-PERPETUAL.csv', 'tardis', 'BTC-PERPETUAL'],
  ['tardis-nautilus-samples/huobi-dm-swap_quotes_BTC-USD.csv', 'tardis', 'BTC-USD'],
];

describe('telling a recording by its content', () => {
  it.each(SHARED)('reads %s as %s', async (file, format, symbol) => {
    const s = await sniffFile(join(D, file));
    expect(s.format).toBe(format);
    expect(s.symbol).toBe(symbol);
  });

  it('tells every shared file the same under a wrong name (the extension says nothing)', async () => {
    const misnamed = ['x.arrow', 'y.csv', 'z.gz', 'w.json', 'v.zip', 'u'];
    for (const [k, [file, format]] of SHARED.entries()) {
      const renamed = join(tmp, `renamed-${k}-${misnamed[k % misnamed.length]}`);
      copyFileSync(join(D, file), renamed);
      expect((await sniffFile(renamed)).format, file).toBe(format);
    }
  });

  it('looks through gzip: a gzipped bookTicker dump or Bybit member reads as the plain one', async () => {
    const plain = readFileSync(join(D, 'binance-futures-bookticker/BTCUSDT-bookTicker-2023-10-02-short.csv'));
    const gz = join(tmp, 'ticker.data');
    writeFileSync(gz, gzipSync(plain));
    expect((await sniffFile(gz)).format).toBe('binance-bookticker');
    const freq = join(tmp, 'funding.bin');
    writeFileSync(freq, gzipSync(readFileSync(join(D, 'freqtrade-binance-futures-funding/XRP_USDT_USDT-8h-funding_rate.json'))));
    expect((await sniffFile(freq)).format).toBe('freqtrade-funding');
  });

  it("tells perpsim's own Arrow and CSV files and LOBSTER's headerless CSVs", async () => {
    const arrow = join(tmp, 'recording.csv');
    const w = new MarketArrowWriter(arrow, { instruments: { BTCUSDT: { tickSize: '0.1', lotSize: '0.001' } }, source: 'test' });
    w.add({ kind: 'trade', recvNs: 1n, exchNs: 1n, symbol: 'BTCUSDT', side: 'B', priceTicks: 10, qtyLots: 1, tradeId: undefined });
    w.close();
    expect((await sniffFile(arrow)).format).toBe('arrow');
    const csv = join(tmp, 'converted.txt');
    const cw = new MarketCsvWriter(csv, { BTCUSDT: { tickSize: '0.1', lotSize: '0.001' } });
    cw.add({ kind: 'trade', recvNs: 1n, exchNs: 1n, symbol: 'BTCUSDT', side: 'B', priceTicks: 10, qtyLots: 1, tradeId: undefined });
    cw.close();
    expect(await sniffFile(csv)).toMatchObject({ format: 'perpsim-csv', symbol: 'BTCUSDT' });
    const dir = join(tmp, 'lobster');
    mkdirSync(dir);
    const message = join(dir, 'm.txt');
    const book = join(dir, 'o.txt');
    writeFileSync(message, '34200.004241176,1,16113575,18,5853300,1\n');
    writeFileSync(book, '5859400,200,5853300,18\n');
    expect((await sniffFile(message)).format).toBe('lobster-message');
    expect((await sniffFile(book)).format).toBe('lobster-orderbook');
  });

  it('names a missing file, a directory, and what an unknown file starts with', async () => {
    const missing = join(tmp, 'missing.gz');
    await expect(sniffFile(missing)).rejects.toThrow(new ReplayError(missing, undefined, undefined, 'no such file'));
    await expect(sniffFile(tmp)).rejects.toThrow(`${tmp}: a directory, not a recording`);
    const odd = join(tmp, 'notes.csv');
    writeFileSync(odd, 'date,open,close\n2024-01-01,1,2\n');
    await expect(sniffFile(odd)).rejects.toThrow(`${odd}: unknown format: its first line is "date,open,close"`);
    const empty = join(tmp, 'empty.gz');
    writeFileSync(empty, '');
    await expect(sniffFile(empty)).rejects.toThrow('unknown format');
  });
});

import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newYorkMidnightNs, openLobster } from '../../src/replay/lobster-files.ts';
import { readLobster, type LobsterRow } from '../../src/replay/lobster-reader.ts';
import { sharedFolder } from './shared-data.ts';

const EXCERPT = join(import.meta.dirname, '../../data/lobster');
const MESSAGE = 'AMZN_2012-06-21_34200000_57600000_message_1.csv';
const BOOK = 'AMZN_2012-06-21_34200000_57600000_orderbook_1.csv';
const tmp = mkdtempSync(join(tmpdir(), 'perpsim-lobster-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function rowsOf(paths: string[]): Promise<LobsterRow[]> {
  const out: LobsterRow[] = [];
  for await (const row of readLobster(await openLobster(paths))) out.push(row);
  return out;
}

/** A message / orderbook pair in a fresh folder, with the excerpt's lines edited by `edit`. */
function editedPair(edit: (message: string[], book: string[]) => void): string[] {
  const dir = mkdtempSync(join(tmp, 'pair-'));
  const message = readFileSync(join(EXCERPT, MESSAGE), 'utf8').trimEnd().split('\n');
  const book = readFileSync(join(EXCERPT, BOOK), 'utf8').trimEnd().split('\n');
  edit(message, book);
  writeFileSync(join(dir, MESSAGE), message.join('\n') + '\n');
  writeFileSync(join(dir, BOOK), book.join('\n') + '\n');
  return [join(dir, BOOK), join(dir, MESSAGE)];
}

describe('LOBSTER file pair', () => {
  it('takes ticker, date and levels from the names, in either order', async () => {
    const files = await openLobster([join(EXCERPT, BOOK), join(EXCERPT, MESSAGE)]);
    expect([files.ticker, files.date, files.levels]).toEqual(['AMZN', '2012-06-21', 1]);
    expect(files.messages.name.endsWith(MESSAGE)).toBe(true);
    expect(files.midnightNs).toBe(1_340_251_200_000_000_000n); // 2012-06-21 04:00 UTC (EDT)
  });

  it('puts New York midnight at 04:00 UTC in daylight saving time and 05:00 UTC outside it', () => {
    const utcHour = (y: number, m: number, d: number): number => Number((newYorkMidnightNs(y, m, d) / 3_600_000_000_000n) % 24n);
    // 2012: DST from Sunday 11 March to Sunday 4 November.
    expect([utcHour(2012, 3, 9), utcHour(2012, 3, 12), utcHour(2012, 11, 2), utcHour(2012, 11, 5)]).toEqual([5, 4, 4, 5]);
    // 2005 (old rule): from Sunday 3 April to Sunday 30 October.
    expect([utcHour(2005, 4, 1), utcHour(2005, 4, 4), utcHour(2005, 10, 28), utcHour(2005, 10, 31)]).toEqual([5, 4, 4, 5]);
    expect(() => newYorkMidnightNs(1986, 6, 2)).toThrowError(RangeError);
  });

  it('refuses names that are not LOBSTER names, and a message file without its orderbook', async () => {
    const odd = join(tmp, 'odd.csv');
    copyFileSync(join(EXCERPT, MESSAGE), odd);
    await expect(openLobster([odd, join(EXCERPT, BOOK)])).rejects.toThrowError(/odd\.csv: not a LOBSTER file name/);
    await expect(openLobster([join(EXCERPT, MESSAGE), join(EXCERPT, MESSAGE)])).rejects.toThrowError(/not a message file and the orderbook file/);
  });
});

describe('LOBSTER reader', () => {
  it('decodes a row with exact ns time, price × 10^4 ticks and the book after the message', async () => {
    const rows = await rowsOf([join(EXCERPT, MESSAGE), join(EXCERPT, BOOK)]);
    expect(rows).toHaveLength(100);
    expect(rows[0]).toEqual({
      row: 1,
      tsNs: 1_340_285_400_017_459_617n, // 13:30:00.017459617 UTC
      type: 5,
      orderId: 0,
      size: 1,
      priceTicks: 2_238_200,
      side: 'S',
      asks: [{ priceTicks: 2_239_500, qtyLots: 100 }],
      bids: [{ priceTicks: 2_231_800, qtyLots: 100 }],
    });
    expect(rows[1]).toMatchObject({ row: 2, tsNs: 1_340_285_400_189_607_670n, type: 1, orderId: 11_885_113, side: 'B' });
    expect(rows[99]!.row).toBe(100);
  });

  it('drops dummy levels and checks that they only follow real ones', async () => {
    const dummy = editedPair((_m, book) => (book[0] = '9999999999,0,2231800,100'));
    const [first] = await rowsOf(dummy);
    expect(first!.asks).toEqual([]);
    const misplaced = editedPair((_m, book) => (book[4] = '9999999999,5,2231800,100'));
    await expect(rowsOf(misplaced)).rejects.toThrowError(/orderbook_1\.csv:5 column 2: an empty level \(price 9999999999\) must have size 0, got 5/);
    // A field the one-pass integer parse refuses is read again on its own, and named.
    const text = editedPair((_m, book) => (book[6] = '2239500,1o0,2231800,100'));
    await expect(rowsOf(text)).rejects.toThrowError(/orderbook_1\.csv:7 column 2: "1o0" is not an integer size/);
  });

  it('names the file, line and column of a bad message field', async () => {
    const badType = editedPair((m) => (m[6] = m[6]!.replace(',5,', ',8,')));
    await expect(rowsOf(badType)).rejects.toThrowError(/message_1\.csv:7 column 2 \(type\): event type 8 is not 1–7/);
    const badTime = editedPair((m) => (m[2] = '34200.1902264761' + m[2]!.slice(m[2]!.indexOf(','))));
    await expect(rowsOf(badTime)).rejects.toThrowError(/message_1\.csv:3 column 1 \(time\): "34200\.1902264761" is not seconds after midnight/);
  });

  it('refuses files of different lengths, or skips bad rows when asked', async () => {
    const longer = editedPair((m) => m.push('34205.5,3,1,1,2239000,1'));
    await expect(rowsOf(longer)).rejects.toThrowError(/message_1\.csv: has more rows than the other file/);
    const bad = editedPair((m) => (m[9] = m[9]!.replace(/,-1$/, ',0')));
    const stream = readLobster(await openLobster(bad), { skipBadRows: true });
    let n = 0;
    for await (const row of stream) if (row.row === 10) throw new Error('row 10 should be skipped');
    for await (const _ of stream) n++;
    expect(n).toBe(99);
    expect(stream.errors.skippedRows).toBe(2); // counted on both passes
  });
});

const lobster = sharedFolder('lobster-sample', 'LOBSTER reader on the sample zips');

describe.skipIf(lobster.missing)(lobster.title, () => {
  it('reads the same first 100 rows from the zip as from the excerpt CSVs', async () => {
    const fromZip: LobsterRow[] = [];
    for await (const row of readLobster(await openLobster([join(lobster.dir, 'LOBSTER_SampleFile_AMZN_2012-06-21_1.zip')]))) {
      fromZip.push(row);
      if (fromZip.length === 100) break;
    }
    expect(fromZip).toEqual(await rowsOf([join(EXCERPT, MESSAGE), join(EXCERPT, BOOK)]));
  });

  it('reads every row of the 10-level GOOG zip with 10 levels a side', async () => {
    let rows = 0;
    let last: LobsterRow | undefined;
    for await (const row of readLobster(await openLobster([join(lobster.dir, 'LOBSTER_SampleFile_GOOG_2012-06-21_10.zip')]))) {
      rows++;
      last = row;
    }
    expect(rows).toBe(147_916);
    expect(last!.row).toBe(147_916);
    expect([last!.asks.length, last!.bids.length]).toEqual([10, 10]);
  });
});

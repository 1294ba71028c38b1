import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource, zipMemberSource } from '../../src/replay/file-source.ts';
import { readTardisQuotes } from '../../src/replay/tardis-csv.ts';
import { listZipEntries, zipEntrySource } from '../../src/replay/zip.ts';
import { sharedFolder } from './shared-data.ts';

const tmp = mkdtempSync(join(tmpdir(), 'perpsim-zip-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A minimal zip writer (stored or deflated members), so the reader is tested on bytes we know. */
function buildZip(members: { name: string; data: Buffer; deflate: boolean; badCrc?: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const body = m.deflate ? deflateRawSync(m.data) : m.data;
    const name = Buffer.from(m.name);
    const crc = (crc32(m.data) ^ (m.badCrc ? 1 : 0)) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(m.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(m.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(m.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(m.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

async function readAll(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

describe('zip reader', () => {
  const big = Buffer.from(Array.from({ length: 50_000 }, (_, i) => `${i},${i * 7}\n`).join(''));

  it('lists members and streams stored and deflated ones back byte for byte', async () => {
    const path = join(tmp, 'a.zip');
    writeFileSync(path, buildZip([
      { name: 'stored.txt', data: Buffer.from('hello'), deflate: false },
      { name: 'big.csv', data: big, deflate: true },
      { name: 'empty.txt', data: Buffer.alloc(0), deflate: false },
    ]));
    const entries = await listZipEntries(path);
    expect(entries.map((e) => [e.name, e.method, e.size])).toEqual([
      ['stored.txt', 0, 5],
      ['big.csv', 8, big.length],
      ['empty.txt', 0, 0],
    ]);
    expect((await readAll(zipEntrySource(path, entries[0]!).open())).toString()).toBe('hello');
    expect((await readAll(zipEntrySource(path, entries[1]!).open())).equals(big)).toBe(true);
    expect((await readAll(zipEntrySource(path, entries[2]!).open())).length).toBe(0);
  });

  it('reports a member whose CRC-32 does not match its directory record', async () => {
    const path = join(tmp, 'bad.zip');
    writeFileSync(path, buildZip([{ name: 'big.csv', data: big, deflate: true, badCrc: true }]));
    const [entry] = await listZipEntries(path);
    await expect(readAll(zipEntrySource(path, entry!).open())).rejects.toThrowError(/bad\.zip!big\.csv: corrupt member/);
  });

  it('reads a one-file zip through any reader, and a named member of a bigger one', async () => {
    const csv = Buffer.from('exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount\nx,S,1,2,3,4.5,4,6\n');
    const single = join(tmp, 'quotes.csv.zip');
    writeFileSync(single, buildZip([{ name: 'quotes.csv', data: csv, deflate: true }]));
    const rows = [];
    for await (const b of readTardisQuotes(single, { tickSize: '0.5', lotSize: '1' })) rows.push(...b.rows);
    expect(rows).toEqual([{ exchangeTsNs: 1000n, askQtyLots: 3, askPriceTicks: 9, bidPriceTicks: 8, bidQtyLots: 6 }]);

    const double = join(tmp, 'two.zip');
    writeFileSync(double, buildZip([{ name: 'a.csv', data: csv, deflate: true }, { name: 'b.txt', data: Buffer.from('b'), deflate: false }]));
    await expect(readAll(fileSource(double).open())).rejects.toThrowError(/two\.zip: a zip of 2 files: name the one to read/);
    expect((await readAll((await zipMemberSource(double, 'b.txt')).open())).toString()).toBe('b');
    await expect(zipMemberSource(double, 'c.csv')).rejects.toThrowError(/no member "c\.csv"/);
  });

  it('says when a file is not a zip archive', async () => {
    const path = join(tmp, 'not.zip');
    writeFileSync(path, 'just text, no central directory');
    await expect(listZipEntries(path)).rejects.toThrowError(/not a zip archive/);
  });
});

const lobster = sharedFolder('lobster-sample', 'zip reader on the LOBSTER sample zips');

describe.skipIf(lobster.missing)(lobster.title, () => {
  it('inflates the GOOG level-1 members to the sizes in the directory', async () => {
    const path = join(lobster.dir, 'LOBSTER_SampleFile_GOOG_2012-06-21_1.zip');
    const entries = await listZipEntries(path);
    expect(entries.map((e) => [e.name, e.size])).toEqual([
      ['GOOG_2012-06-21_34200000_57600000_orderbook_1.csv', 1_154_169],
      ['GOOG_2012-06-21_34200000_57600000_message_1.csv', 2_024_312],
      ['LOBSTER_SampleFiles_ReadMe.txt', 4790],
    ]);
    const message = await readAll(zipEntrySource(path, entries[1]!).open());
    expect(message.length).toBe(2_024_312);
    expect(message.subarray(0, 34).toString()).toBe('34200.015105074,4,15818974,4,57940');
  });
});

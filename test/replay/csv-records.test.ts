import { describe, expect, it } from 'vitest';
import { CsvSplitter, recordFields, type CsvBatch } from '../../src/replay/csv-records.ts';
import { ReplayError } from '../../src/replay/replay-error.ts';

/** Feeds `text` in pieces of `size` bytes and returns every record with its line. */
function splitAll(text: string, size: number): [number, string[]][] {
  const splitter = new CsvSplitter('test.csv');
  const bytes = Buffer.from(text, 'utf8');
  const out: [number, string[]][] = [];
  const take = (b: CsvBatch): void => {
    for (let r = 0; r < b.count; r++) out.push([b.lines[r]!, recordFields(b, r)]);
  };
  for (let at = 0; at < bytes.length; at += size) take(splitter.push(bytes.subarray(at, at + size)));
  take(splitter.end());
  return out;
}

const PLAIN = 'a,b,c\r\n1,2.5,x\n\n3,,\n4,5,ünï\n6,7,8';
const EXPECTED: [number, string[]][] = [
  [1, ['a', 'b', 'c']],
  [2, ['1', '2.5', 'x']],
  [4, ['3', '', '']],
  [5, ['4', '5', 'ünï']],
  [6, ['6', '7', '8']],
];

describe('CsvSplitter', () => {
  it('gives the same records and line numbers however the bytes are cut', () => {
    for (let size = 1; size <= PLAIN.length + 1; size++) expect(splitAll(PLAIN, size)).toEqual(EXPECTED);
  });

  it('hands quoted input to csv-parse from the first line with a quote on, keeping line numbers', () => {
    const text = 'x,y\n1,2\n"a,b","c ""q"""\n"multi\nline",z\n5,6\n';
    const expected: [number, string[]][] = [
      [1, ['x', 'y']],
      [2, ['1', '2']],
      [3, ['a,b', 'c "q"']],
      [5, ['multi\nline', 'z']],
      [6, ['5', '6']],
    ];
    for (const size of [1, 3, 7, 64]) expect(splitAll(text, size)).toEqual(expected);
  });

  it('reports a broken quote with the file and its line', () => {
    expect(() => splitAll('a,b\n1,2\n"x"y,3\n', 64)).toThrowError(ReplayError);
    expect(() => splitAll('a,b\n1,2\n"x"y,3\n', 64)).toThrowError(/^test\.csv:3: bad CSV/);
  });

  it('keeps fields that are only separators and a last line without a newline', () => {
    expect(splitAll(',,\n,', 2)).toEqual([
      [1, ['', '', '']],
      [2, ['', '']],
    ]);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLobster } from '../../src/replay/lobster-files.ts';
import { readLobster } from '../../src/replay/lobster-reader.ts';
import { verifyLobster } from '../../src/replay/lobster-verify.ts';
import { sharedFolder } from './shared-data.ts';

const lobster = sharedFolder('lobster-sample', 'LOBSTER L3 replay oracle: the book equals every orderbook row');

describe.skipIf(lobster.missing)(lobster.title, () => {
  const samples: [string, number][] = [
    ['LOBSTER_SampleFile_GOOG_2012-06-21_1.zip', 49_482],
    ['LOBSTER_SampleFile_AMZN_2012-06-21_1.zip', 57_515],
    ['LOBSTER_SampleFile_GOOG_2012-06-21_10.zip', 147_916],
  ];
  for (const [zip, rows] of samples) {
    it(`replays all ${rows} rows of ${zip} with the top levels equal to the file after each`, async () => {
      const files = await openLobster([join(lobster.dir, zip)]);
      const result = await verifyLobster(readLobster(files), files.levels);
      // On failure this shows the row, the file's levels and the book's.
      expect(result.firstMismatch).toBeUndefined();
      expect([result.rows, result.matched]).toEqual([rows, rows]);
      expect(result.anomalies).toEqual([]);
      // Most rows are explained by their message alone; the rest only add levels from beyond the window.
      expect(result.stats.revealRows).toBeLessThan(rows * 0.15);
    }, 60_000);
  }
});

import type { LevelView } from '../book/events.ts';
import type { Level } from './levels.ts';
import { LOBSTER_EMPTY_ASK, type LobsterRow } from './lobster-reader.ts';
import { LobsterBookReplay } from './lobster-replay.ts';

/** The first row where the replayed book differs from LOBSTER's, both in orderbook-file form. */
export interface LobsterMismatch {
  row: number;
  /** The orderbook row, as in the file: `askPrice1,askSize1,bidPrice1,bidSize1,…`. */
  expected: string;
  /** The replayed book's top L levels in the same form. */
  got: string;
}

/** What `verifyLobster` found. */
export interface LobsterVerifyResult {
  rows: number;
  /** Rows after which the book's top L levels equal the orderbook row. */
  matched: number;
  firstMismatch: LobsterMismatch | undefined;
  stats: LobsterBookReplay['stats'];
  anomalyCount: number;
  /** The first few anomalies, described (`row 17: new buy order … would cross …`). */
  anomalies: string[];
}

/**
 * Replays LOBSTER rows into a fresh `LobsterBookReplay` and compares the book with the
 * orderbook file after every message (the oracle): `matched === rows` means every row agreed.
 */
export async function verifyLobster(rows: AsyncIterable<LobsterRow>, levels: number): Promise<LobsterVerifyResult> {
  const replay = new LobsterBookReplay(levels);
  let count = 0;
  let matched = 0;
  let firstMismatch: LobsterMismatch | undefined;
  for await (const row of rows) {
    count++;
    if (replay.apply(row)) {
      matched++;
    } else if (firstMismatch === undefined) {
      const view = replay.book.l2(levels);
      firstMismatch = { row: row.row, expected: formatLobsterBook(row.asks, row.bids, levels), got: formatLobsterBook(view.asks, view.bids, levels) };
    }
  }
  return { rows: count, matched, firstMismatch, stats: replay.stats, anomalyCount: replay.anomalyCount, anomalies: replay.anomalies };
}

/** Levels in LOBSTER orderbook-file form, padded with the dummy levels (±9999999999, size 0). */
export function formatLobsterBook(asks: readonly (Level | LevelView)[], bids: readonly (Level | LevelView)[], levels: number): string {
  const cells: (string | number)[] = [];
  for (let i = 0; i < levels; i++) {
    const ask = asks[i];
    const bid = bids[i];
    cells.push(ask?.priceTicks ?? LOBSTER_EMPTY_ASK, ask?.qtyLots ?? 0, bid?.priceTicks ?? -LOBSTER_EMPTY_ASK, bid?.qtyLots ?? 0);
  }
  return cells.join(',');
}

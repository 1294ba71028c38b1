import { describe, expect, it } from 'vitest';
import { buildReplaySimulation, replayPlan } from '../../src/replay/l2/build-replay.ts';
import { batchesOf, type L2Batch } from '../../src/replay/l2/l2-batch.ts';
import { scanMinFeedDelayNs, scanSpan, streamFeed } from '../../src/replay/l2/l2-stream.ts';
import { minFeedDelayNs } from '../../src/replay/l2/feed-delay.ts';
import { ReplayError } from '../../src/replay/replay-error.ts';
import { parseScenario } from '../../src/scenario/load.ts';
import { binance, btcEvents, btcScenario, startBtcReplay } from './l2-fixture.ts';

/** A batch's columns as plain arrays, to compare batches cut differently. */
function flat(batches: Iterable<L2Batch>) {
  const out = { kind: [] as number[], tsNs: [] as bigint[], feedDelayNs: [] as bigint[], levels: [] as number[], trades: [] as number[] };
  for (const b of batches) {
    for (let i = 0; i < b.length; i++) {
      out.kind.push(b.kind[i]!);
      out.tsNs.push(b.tsNs[i]!);
      out.feedDelayNs.push(b.feedDelayNs[i]!);
      if (b.kind[i] === 0) for (let j = b.levelStart[i]!; j < b.levelEnd[i]!; j++) out.levels.push(b.levelSide[j]!, b.levelPrice[j]!, b.levelQty[j]!);
      if (b.kind[i] === 1) out.trades.push(b.side[i]!, b.priceTicks[i]!, b.qtyLots[i]!);
    }
  }
  return out;
}

describe.skipIf(binance.missing)(`${binance.title}: streamed from its files on a reader thread`, () => {
  const files = () => {
    const s = btcScenario();
    return replayPlan(s.market!.replay, s).files;
  };

  /** Streams the files to the end and checks the batches hold exactly the events of a whole read. */
  async function expectWholeRead(feed: ReturnType<typeof streamFeed>): Promise<void> {
    const streamed: L2Batch[] = [];
    for (let b = feed.next(); b !== undefined; b = feed.next()) streamed.push(b);
    expect(feed.next()).toBeUndefined();
    const events = await btcEvents();
    const [got, want] = [flat(streamed), flat(batchesOf(events))];
    for (const key of Object.keys(want) as (keyof typeof want)[]) {
      const a = got[key] as unknown[];
      const b = want[key] as unknown[];
      expect(a.length, key).toBe(b.length);
      expect(a.findIndex((x, i) => x !== b[i]), `first ${key} that differs`).toBe(-1);
    }
    expect(streamed.length).toBeGreaterThan(3); // really in batches
  }

  it('pulls exactly the events a whole read gives, in the same order', async () => {
    await expectWholeRead(streamFeed(files()));
  });

  it('after span passes, pulls the same events from the reader thread started beside the span pass of its files, and from a new one for other files', async () => {
    scanSpan(files());
    scanSpan(files(), { skipBadRows: true }); // the newer span pass's reader thread replaces the first
    await expectWholeRead(streamFeed(files(), { skipBadRows: true }));
    await expectWholeRead(streamFeed(files()));
  });

  it('finds the same feed-delay shift and span as the events in memory', async () => {
    const events = await btcEvents();
    expect(scanMinFeedDelayNs(files())).toBe(minFeedDelayNs(events));
    const span = scanSpan(files());
    expect(span).toMatchObject({ firstNs: events[0]!.tsNs, lastNs: events[events.length - 1]!.tsNs, events: events.length, minFeedDelayNs: minFeedDelayNs(events) });
  });

  it('ends the same state as the replay of events in memory (same state hash)', async () => {
    const inMemory = await startBtcReplay();
    inMemory.sim.runToEnd();
    const streamed = await buildReplaySimulation(btcScenario());
    streamed.sim.start();
    streamed.sim.runToEnd();
    expect(streamed.replayer.stats).toEqual(inMemory.replayer.stats);
    expect(streamed.sim.venue.stateHash()).toBe(inMemory.sim.venue.stateHash());
    expect(streamed.replayer.done).toBe(true);
  });

  it('stops reading when closed early, and reads nothing more', () => {
    const feed = streamFeed(files());
    expect(feed.next()!.length).toBeGreaterThan(0);
    feed.close();
    expect(feed.next()).toBeUndefined();
  });
});

describe('a streamed replay with a file it cannot read', () => {
  it('fails at build, naming the file, before anything runs', async () => {
    const scenario = parseScenario({
      name: 'missing',
      start: '2024-08-08T23:54:15Z',
      duration: '1m',
      instruments: [{ symbol: 'BTCUSDT-PERP', tickSize: '0.0001', indexPrice: '61.8' }],
      market: { replay: { format: 'binance', files: ['/nonexistent/btcusdt_20240808.gz'], symbolMap: { BTCUSDT: { symbol: 'BTCUSDT-PERP', lotSize: '0.001', tickSize: '0.1' } } } },
    });
    const built = buildReplaySimulation(scenario);
    await expect(built).rejects.toThrow(ReplayError);
    await expect(built).rejects.toThrow(/nonexistent\/btcusdt_20240808\.gz: no such file/);
  });
});

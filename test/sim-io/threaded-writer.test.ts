import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC, type RecordBatch } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/load.ts';
import { factsBySymbol, observeEventBatch } from '../../src/sim/event-log/facts-feed.ts';
import type { IdHoles } from '../../src/sim/event-log/id-holes.ts';
import { attachEventLog } from '../../src/sim/event-log/recorder.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { StylizedFacts } from '../../src/sim/stylized-facts.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { EventLogFileWriter } from '../../src/sim-io/event-log-file.ts';
import { ThreadedBatchWriter } from '../../src/sim-io/threaded-batch-writer.ts';
import { MAX_QUEUED } from '../../src/sim-io/writer-protocol.ts';
import { scriptWireFeedRows, tempDirs } from './log-fixtures.ts';
import { loadScenario } from '../../src/scenario/load.ts';

const { newDir, removeAll } = tempDirs('perpsim-threaded-');
afterAll(removeAll);

const scripted = parseScenario({
  name: 'threaded-log',
  start: '2026-01-01T07:59:00Z',
  duration: '1m',
  instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
  users: [
    { username: 'alice', password: 'pw-alice', cash: '1000000' },
    { username: 'bob', password: 'pw-bob', cash: '1000000' },
  ],
});

/** Takes a batch and, from a recorder with `deferIds`, the order ids it left to write. */
type OnBatch = (b: RecordBatch, holes?: IdHoles) => void;

/** A scripted minute with a symbol first seen mid-run (a delta dictionary batch), in batches of `batchRows`. */
function scriptedLog(batchRows: number, onBatch: OnBatch, deferIds = false): void {
  const sim = new Simulation(scripted);
  const recorder = attachEventLog(sim.venue, { batchRows, onBatch, reuseBuffers: true, deferIds });
  const v = sim.venue;
  const [alice, bob, btc] = [v.account('alice')!, v.account('bob')!, v.market('BTCUSD-PERP')!];
  sim.clock.scheduleAt(sim.startNs + 5_000_000_000n, () => {
    scriptWireFeedRows(v, alice, bob, btc);
  });
  sim.runToEnd();
  recorder.flush();
}

/**
 * Writes the same log in-process and on the thread (its recorder leaving the order ids' bytes to
 * the thread); both files' bytes, the thread's facts, and how many ids the thread wrote.
 */
function bothWays(log: (onBatch: OnBatch, deferIds: boolean) => void, compression: 'lz4' | 'none') {
  const dir = newDir();
  const direct = new EventLogFileWriter(join(dir, 'direct.arrow'), { compression });
  const facts = new StylizedFacts();
  log((b) => {
    observeEventBatch(facts, b);
    direct.write(b);
  }, false);
  direct.close();
  const threaded = new ThreadedBatchWriter(join(dir, 'threaded.arrow'), { compression, facts: true });
  let deferred = 0;
  log((b, holes) => {
    deferred += holes?.count ?? 0;
    if (holes !== undefined && holes.count > 0) expect(b.getChild('order_id')!.data[0]!.values[holes.copy()[0]!]).toBe(0); // a hole: not written here
    threaded.write(b, holes);
  }, true);
  const closed = threaded.close();
  return {
    deferred,
    direct: readFileSync(join(dir, 'direct.arrow')),
    threaded: readFileSync(join(dir, 'threaded.arrow')),
    closed,
    facts: factsBySymbol(facts),
  };
}

describe('the event log written on its own thread', () => {
  it('is byte for byte the file the in-process writer makes, delta dictionaries and many more batches than may be in flight included', () => {
    for (const compression of ['lz4', 'none'] as const) {
      let batches = 0;
      const out = bothWays((onBatch, deferIds) => scriptedLog(3, (b, holes) => (batches++, onBatch(b, holes)), deferIds), compression);
      expect(out.deferred).toBeGreaterThan(0);
      expect(batches / 2).toBeGreaterThan(MAX_QUEUED * 2);
      expect(out.threaded.equals(out.direct)).toBe(true);
      expect(out.closed.bytesWritten).toBe(out.direct.length);
      expect(tableFromIPC(out.threaded).getChild('symbol')!.toArray()).toContain('XYZ-PERP');
    }
  });

  it('measures the same stylized facts as the run did in-process, on ten minutes of default', () => {
    const scenario = loadScenario('default');
    const log = (onBatch: OnBatch, deferIds: boolean) => {
      const sim = buildSimulation(scenario, { durationNs: 600_000_000_000n });
      const recorder = attachEventLog(sim.venue, { batchRows: 8192, onBatch, reuseBuffers: true, deferIds });
      sim.runToEnd();
      recorder.flush();
    };
    const out = bothWays(log, 'lz4');
    expect(out.deferred).toBeGreaterThan(1000);
    expect(out.threaded.equals(out.direct)).toBe(true);
    expect(out.closed.facts).toEqual(out.facts);
    expect(out.facts.all.depth_top5).toBeGreaterThan(0); // a market with a book was measured
    expect(Object.keys(out.facts.by_symbol).length).toBeGreaterThan(0);
  });

  it('fails at construction for a file it cannot create, and on close when the thread failed', () => {
    const dir = newDir();
    expect(() => new ThreadedBatchWriter(join(dir, 'no', 'such', 'dir.arrow'))).toThrow(/ENOENT/);
    const writer = new ThreadedBatchWriter(join(dir, 'bad.arrow'));
    const batches: RecordBatch[] = [];
    scriptedLog(65_536, (b) => batches.push(b));
    writer.write(batches[0]!);
    // A batch whose columns do not match the schema the thread was given first.
    const other = batches[0]!.select(['seq', 'ts_ns']);
    writer.write(other);
    expect(() => writer.close()).toThrow(/bad\.arrow: /);
  });
});

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC, type RecordBatch } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMoney } from '../../src/core/money.ts';
import { loadScenario, parseScenario } from '../../src/scenario/load.ts';
import { buildSimulation } from '../../src/sim/build.ts';
import { factsBySymbol, observeEventBatch } from '../../src/sim/event-log/facts-feed.ts';
import { attachEventLog, type EventLogRecorderOptions } from '../../src/sim/event-log/recorder.ts';
import { RowBuilder } from '../../src/sim/event-log/row-builder.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { StylizedFacts } from '../../src/sim/stylized-facts.ts';
import { EventLogFileWriter } from '../../src/sim-io/event-log-file.ts';
import { ThreadedEventLogWriter } from '../../src/sim-io/threaded-writer.ts';
import { MAX_QUEUED } from '../../src/sim-io/writer-protocol.ts';
import { scriptWireFeedRows, tempDirs } from './log-fixtures.ts';

const { newDir, removeAll } = tempDirs('perpsim-rows-');
afterAll(removeAll);

/** How a log hands over what it recorded: batches, or rows as numbers. */
type Sink = Pick<EventLogRecorderOptions, 'onBatch' | 'onRows'>;

const scripted = parseScenario({
  name: 'rows-log',
  start: '2026-01-01T07:59:00Z',
  duration: '10m',
  instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }],
  users: [
    { username: 'alice', password: 'pw-alice', cash: '1000000' },
    { username: 'bob', password: 'pw-bob', cash: '1000000' },
  ],
});

/**
 * Ten scripted minutes, in batches of 3 rows: rows read from wire feeds (an unknown symbol, a
 * price off the grid, an unknown order), instrument states, a trade, a funding rate, and an
 * account added mid-run that trades.
 */
function scriptedLog(sink: Sink): void {
  const sim = new Simulation(scripted);
  const recorder = attachEventLog(sim.venue, { ...sink, batchRows: 3, reuseBuffers: true });
  const v = sim.venue;
  const [alice, bob, btc] = [v.account('alice')!, v.account('bob')!, v.market('BTCUSD-PERP')!];
  sim.clock.scheduleAt(sim.startNs + 5_000_000_000n, () => {
    scriptWireFeedRows(v, alice, bob, btc);
    v.setInstrumentState(btc, 'HALTED');
    v.setInstrumentState(btc, 'OPEN');
  });
  sim.clock.scheduleAt(sim.startNs + 7_000_000_000n, () => {
    const carol = v.addUser('carol', parseMoney('1000000'));
    v.placeOrderTicks(carol, btc, 'S', 99_985, 2);
    v.placeOrderTicks(alice, btc, 'B', 99_985, 4);
    v.settleFundingNow(btc);
  });
  sim.runToEnd();
  recorder.flush();
}

/** Ten minutes of `default` in batches of 8,192 rows. */
function defaultLog(sink: Sink): void {
  const sim = buildSimulation(loadScenario('default'), { durationNs: 600_000_000_000n });
  const recorder = attachEventLog(sim.venue, { ...sink, batchRows: 8192, reuseBuffers: true });
  sim.runToEnd();
  recorder.flush();
}

/** The log written in-process from batches, and on the writer thread from rows; the files and the facts. */
function bothWays(log: (sink: Sink) => void, compression: 'lz4' | 'none') {
  const dir = newDir();
  const direct = new EventLogFileWriter(join(dir, 'direct.arrow'), { compression });
  const facts = new StylizedFacts();
  log({
    onBatch: (b: RecordBatch) => {
      observeEventBatch(facts, b);
      direct.write(b);
    },
  });
  direct.close();
  const threaded = new ThreadedEventLogWriter(join(dir, 'threaded.arrow'), { compression, facts: true });
  let tapes = 0;
  log({ onRows: (tape, setup) => (tapes++, threaded.writeRows(tape, setup)) });
  const closed = threaded.close();
  const file = (name: string) => readFileSync(join(dir, name));
  return { tapes, direct: file('direct.arrow'), threaded: file('threaded.arrow'), closed, facts: factsBySymbol(facts) };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('the event log sent to its thread as rows of numbers', () => {
  it('is built there into the file the in-process recorder writes, byte for byte, through many more tapes than may be in flight', () => {
    for (const compression of ['lz4', 'none'] as const) {
      const out = bothWays(scriptedLog, compression);
      expect(out.tapes).toBeGreaterThan(MAX_QUEUED * 2);
      expect(out.threaded.equals(out.direct)).toBe(true);
      expect(out.closed.bytesWritten).toBe(out.direct.length);
      const table = tableFromIPC(out.threaded);
      expect(table.getChild('symbol')!.toArray()).toContain('XYZ-PERP'); // a row read from a wire feed
      expect(table.getChild('user')!.toArray()).toContain('carol'); // an account added mid-run
      expect(table.getChild('funding_rate')!.toArray().filter((r: string | null) => r !== null).length).toBeGreaterThan(0);
      expect(table.getChild('price')!.toArray()).toContain('50000.25'); // a price off the grid keeps its text
    }
  });

  it('measures the same stylized facts there as in-process, on ten minutes of default', () => {
    const out = bothWays(defaultLog, 'lz4');
    expect(out.threaded.equals(out.direct)).toBe(true);
    expect(out.closed.facts).toEqual(out.facts);
    expect(out.facts.all.depth_top5).toBeGreaterThan(0);
  });

  it('has the bytes the recorder wrote when it built the columns itself (sha256 pinned from fa43b16)', () => {
    const hashes: Record<string, string> = {};
    for (const [name, log] of [['scripted', scriptedLog], ['default', defaultLog]] as const) {
      const path = join(newDir(), `${name}.arrow`);
      const writer = new EventLogFileWriter(path, { compression: 'none' });
      log({ onBatch: (b) => writer.write(b) });
      writer.close();
      hashes[name] = sha256(readFileSync(path));
    }
    expect(hashes).toEqual({
      scripted: '2a47a49bdb0b811b087d989ce33583510fc7d0d287cbb4aa6319421b9de7bb82',
      default: '60f573d101c87b04959519c9d0331e8e26c0a3e45190b46c247716b0093cad88',
    });
  });

  it('refills the arrays a tape hands back without clearing them, and writes the same bytes', () => {
    const dir = newDir();
    const direct = new EventLogFileWriter(join(dir, 'direct.arrow'), { compression: 'none' });
    scriptedLog({ onBatch: (b) => direct.write(b) });
    direct.close();
    const refilled = new EventLogFileWriter(join(dir, 'refilled.arrow'), { compression: 'none' });
    let builder: RowBuilder | undefined;
    const arrays = new Set<ArrayBuffer>();
    let tapes = 0;
    scriptedLog({
      onRows: (tape, setup) => {
        builder ??= new RowBuilder({ ...setup, reuse: true });
        refilled.write(builder.build(tape, true));
        builder.done();
        tapes++;
        arrays.add(tape.nums.buffer);
        return { nums: tape.nums, ids: tape.ids }; // dirty: the next tape fills them again
      },
    });
    refilled.close();
    expect(tapes).toBeGreaterThan(10);
    expect(arrays.size).toBe(1); // every tape filled the first one's arrays again (new ones would make one per tape)
    expect(readFileSync(join(dir, 'refilled.arrow')).equals(readFileSync(join(dir, 'direct.arrow')))).toBe(true);
  });

  it('takes exactly one of onBatch and onRows', () => {
    const sim = new Simulation(scripted);
    expect(() => attachEventLog(sim.venue, {})).toThrow(TypeError);
    expect(() => attachEventLog(sim.venue, { onBatch: () => {}, onRows: () => {} })).toThrow(TypeError);
  });
});

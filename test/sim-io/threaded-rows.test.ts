import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableFromIPC, type RecordBatch } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { factsBySymbol, observeEventBatch } from '../../src/sim/event-log/facts-feed.ts';
import { attachEventLog } from '../../src/sim/event-log/recorder.ts';
import { RowBuilder } from '../../src/sim/event-log/row-builder.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { StylizedFacts } from '../../src/sim/stylized-facts.ts';
import { EventLogFileWriter } from '../../src/sim-io/event-log-file.ts';
import { ThreadedEventLogWriter } from '../../src/sim-io/threaded-writer.ts';
import { MAX_QUEUED } from '../../src/sim-io/writer-protocol.ts';
import { defaultLog, scripted, scriptedLog, tempDirs, type Sink } from './log-fixtures.ts';

const { newDir, removeAll } = tempDirs('perpsim-rows-');
afterAll(removeAll);

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

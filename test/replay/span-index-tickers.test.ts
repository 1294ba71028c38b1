import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReplaySimulation, buildReplaySimulationFrom, replayPlan } from '../../src/replay/l2/build-replay.ts';
import { loadL2Events, streamL2Batches } from '../../src/replay/l2/l2-sources.ts';
import type { L2Event } from '../../src/replay/l2/l2-event.ts';
import { indexTickersFound } from '../../src/replay/l2/l2-stream.ts';
import { replayScenario } from '../../src/replay/l2/replay-scenario.ts';
import { parseScenario } from '../../src/scenario/load.ts';
import { attachEventLog } from '../../src/sim/event-log/recorder.ts';
import { Simulation } from '../../src/sim/simulation.ts';
import { EventLogFileWriter } from '../../src/sim-io/event-log-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'perpsim-span-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 3-minute synthetic run's event log (index, mark and funding rows, touches). */
function eventLog(): string {
  const path = join(dir, 'events.arrow');
  const sim = new Simulation(parseScenario({ name: 'span-index', seed: 3, start: '2026-01-01T07:59:00Z', duration: '3m', instruments: [{ symbol: 'BTCUSD-PERP', tickSize: '0.5', indexPrice: '50000' }] }));
  const file = new EventLogFileWriter(path);
  const recorder = attachEventLog(sim.venue, { batchRows: 64, onBatch: (b) => file.write(b) });
  sim.runToEnd();
  recorder.flush();
  file.close();
  return path;
}

describe('the span pass of one columnar recording finds its index tickers on the way', () => {
  it('gives the run the tickers a tickers-only read keeps, and the run ends as one from the events in memory', async () => {
    const path = eventLog();
    const { scenario } = await replayScenario({ files: [path] });
    const files = replayPlan(scenario.market!.replay, scenario).files;
    const found = indexTickersFound(files, { skipBadRows: scenario.market!.replay.skipBadRows });
    const read: L2Event[] = [];
    for await (const b of streamL2Batches(files, { tickersOnly: true })) for (const e of b.tickers.values()) if (e.indexPrice !== undefined) read.push(e);
    expect(read.length).toBeGreaterThan(2);
    expect(found).toEqual(read);

    const streamed = await buildReplaySimulation(scenario);
    streamed.sim.start();
    streamed.sim.runToEnd();
    const inMemory = buildReplaySimulationFrom(scenario, await loadL2Events(files));
    inMemory.sim.start();
    inMemory.sim.runToEnd();
    expect(streamed.sim.venue.stateHash()).toBe(inMemory.sim.venue.stateHash());
  }, 60_000);
});

/**
 * Passes of `default` as `perpsim run`'s simulation thread runs them, for instruction counts
 * and CPU pairs (bench/README, round 14 `day14`): each pass builds a fresh simulation of
 * MINUTES sim-minutes with the event-log recorder attached, each tape handed back at once as
 * the writer thread hands it back (no thread: only the simulation thread's work is in the
 * pass), and prints its CPU time, rows, state hash and the sha256 of every tape (numbers, order
 * id bytes, texts, names), so two trees can be checked to write the same rows.
 *
 * Bundle it (`npx esbuild bench/day-passes.ts --bundle --platform=node --format=esm
 * --outfile=/tmp/x/day.mjs` with the banner `bench/README` gives for `require`), then
 * `node day.mjs [MINUTES=15] [PASSES=3] [nohash]`. Under `valgrind --tool=callgrind
 * --dump-before=uv_getrusage` each pass is one dump (its two `process.cpuUsage` calls).
 */
import { createHash } from 'node:crypto';
import { loadScenario } from '../src/scenario/load.ts';
import { buildSimulation } from '../src/sim/build.ts';
import { attachEventLog } from '../src/sim/event-log/recorder.ts';
import type { RowTapeData, SpareTape } from '../src/sim/event-log/row-tape.ts';
import { cpuSeconds } from './harness.ts';

const minutes = Number(process.argv[2] ?? 15);
const passes = Number(process.argv[3] ?? 3);
const hashing = process.argv[4] !== 'nohash';
const scenario = loadScenario('default');

for (let pass = 1; pass <= passes; pass++) {
  const sim = buildSimulation(scenario, { durationNs: BigInt(minutes * 60) * 1_000_000_000n });
  const hash = createHash('sha256');
  let texts = 0;
  const onRows = (tape: RowTapeData): SpareTape => {
    texts += tape.texts.length;
    if (hashing) {
      hash.update(new Uint8Array(tape.nums.buffer, 0, tape.used * 8));
      hash.update(tape.ids.subarray(0, tape.idBytes));
      hash.update(JSON.stringify([tape.rows, tape.texts, tape.users, tape.symbols]));
    }
    return { nums: tape.nums, ids: tape.ids };
  };
  const recorder = attachEventLog(sim.venue, { onRows });
  const cpuS = cpuSeconds(() => {
    sim.runToEnd();
    recorder.flush();
  });
  const tapes = hashing ? hash.digest('hex').slice(0, 16) : '-';
  console.log(`pass ${pass}: ${minutes} min, cpu ${cpuS.toFixed(3)} s, rows ${recorder.rows}, texts ${texts}, state ${sim.venue.stateHash()}, tapes ${tapes}`);
}

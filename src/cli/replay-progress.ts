import type { L2Replayer } from '../replay/l2/l2-replayer.ts';
import type { Simulation } from '../sim/simulation.ts';
import { Progress, type ProgressStream } from './progress.ts';

/**
 * Progress of a served replay (`perpsim serve --replay`): while the recording has records left,
 * a plain line on `out` every `everyMs` of wall time — sim time, % of the run, records applied
 * and records per wall second — then one line when the recording is done. Never a redrawn
 * terminal line (the server prints its own lines), never on stdout. Returns the stop function.
 */
export function watchServedReplay(out: ProgressStream, sim: Simulation, replayer: L2Replayer, label: string, everyMs = 10_000): () => void {
  const progress = new Progress({ write: (text) => out.write(text) }, sim.startNs, sim.endNs, label, everyMs);
  const timer = setInterval(
    () => {
      progress.update(sim.clock.nowNs, replayer.stats.events);
      if (!replayer.done) return;
      out.write(`${label}: the recording is replayed to its end (${replayer.stats.events} records)\n`);
      clearInterval(timer);
    },
    Math.min(everyMs, 1000),
  );
  timer.unref(); // never what keeps the process alive
  return () => clearInterval(timer);
}

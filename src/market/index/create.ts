import { GbmIndex } from './gbm.ts';
import { FlatIndex, type IndexProcess, type IndexRandom } from './index-process.ts';
import { JumpDiffusionIndex, type JumpParams } from './jump-diffusion.ts';
import { OuLogIndex } from './ou.ts';
import { RecordedIndex, type IndexPoint } from './recorded.ts';
import { RegimeSwitchingIndex, type Regime } from './regime-switching.ts';

/**
 * What kind of index process to run and its parameters, with recorded series already resolved
 * to points (the scenario loader reads files; src/market does no I/O). Annualized parameters
 * refer to `SECONDS_PER_YEAR`.
 */
export type IndexProcessSpec =
  | { kind: 'flat' }
  | { kind: 'gbm'; volAnnual: number; driftAnnual?: number | undefined }
  | { kind: 'jump-diffusion'; volAnnual: number; driftAnnual?: number | undefined; jumps: JumpParams }
  | { kind: 'ou'; volAnnual: number; halfLifeSec: number; mean?: number | undefined }
  | { kind: 'regime-switching'; regimes: Regime[]; driftAnnual?: number | undefined; jumps?: JumpParams | undefined }
  | { kind: 'recorded'; points: IndexPoint[] };

/** The names of every index process kind. */
export const INDEX_PROCESS_KINDS = ['flat', 'gbm', 'jump-diffusion', 'ou', 'regime-switching', 'recorded'] as const;

/**
 * Builds the process a spec describes, starting at `start` (price units) at `startNs`.
 * `rng` is the process's own stream; a flat or recorded process draws nothing.
 *
 * @throws RangeError naming the bad parameter.
 */
export function createIndexProcess(spec: IndexProcessSpec, rng: IndexRandom, start: number, startNs: bigint): IndexProcess {
  switch (spec.kind) {
    case 'flat':
      return new FlatIndex(start);
    case 'gbm':
      return new GbmIndex(rng, { start, volAnnual: spec.volAnnual, driftAnnual: spec.driftAnnual ?? 0 });
    case 'jump-diffusion':
      return new JumpDiffusionIndex(rng, { start, volAnnual: spec.volAnnual, driftAnnual: spec.driftAnnual ?? 0, jumps: spec.jumps });
    case 'ou':
      return new OuLogIndex(rng, { start, volAnnual: spec.volAnnual, halfLifeSec: spec.halfLifeSec, mean: spec.mean ?? start });
    case 'regime-switching':
      return new RegimeSwitchingIndex(rng, {
        start,
        regimes: spec.regimes,
        driftAnnual: spec.driftAnnual ?? 0,
        ...(spec.jumps === undefined ? {} : { jumps: spec.jumps }),
      });
    case 'recorded':
      return new RecordedIndex(spec.points, startNs);
  }
}

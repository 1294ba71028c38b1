import { describe, expect, it } from 'vitest';
import { executeRun, wallLine } from '../../src/cli/run-command.ts';
import { tempDir } from './cli-helpers.ts';

describe('perpsim run, where the wall time went', () => {
  it('prints the whole and its parts, the summary being what the named parts leave', () => {
    const line = wallLine(10_000, 500, { buildMs: 250, simulationMs: 8_000, writerWaitMs: 120, simulationCpuMs: 7_500, writerCloseMs: 1_000 });
    expect(line).toBe(
      "since the process started 10.00 s = start-up 0.50 s + build 0.25 s + simulation 8.00 s (its thread's CPU 7.50 s, waiting for the writer thread 0.12 s) + writer thread finishing 1.00 s + summary 0.25 s",
    );
    expect(wallLine(1_000, 100, { buildMs: 0, simulationMs: 800, writerWaitMs: 0, simulationCpuMs: NaN, writerCloseMs: 0 })).toContain('simulation 0.80 s (waiting for the writer thread 0.00 s) +'); // no /proc: no CPU
  });

  it('measures each part of a run: none negative, the waiting inside the simulation', { timeout: 60_000 }, async () => {
    const tmp = tempDir('perpsim-run-wall-');
    try {
      const { wall } = await executeRun({ scenario: 'default', seed: 3, durationNs: 30_000_000_000n, outDir: tmp.dir }, { write: () => true });
      expect(wall.buildMs).toBeGreaterThan(0);
      expect(wall.simulationMs).toBeGreaterThan(0);
      expect(wall.writerWaitMs).toBeGreaterThanOrEqual(0);
      expect(wall.writerWaitMs).toBeLessThanOrEqual(wall.simulationMs);
      expect(wall.writerCloseMs).toBeGreaterThanOrEqual(0);
      expect(wall.simulationCpuMs).toBeGreaterThan(0); // Linux: /proc says
      expect(wall.writerCpuMs).toBeGreaterThan(0); // the writer thread's own, from its /proc/thread-self
      expect(wall.writerCpuMs).toBeLessThan(wall.simulationCpuMs + wall.writerCloseMs + wall.buildMs + 5_000);
    } finally {
      tmp.remove();
    }
  });
});

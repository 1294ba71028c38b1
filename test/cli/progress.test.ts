import { describe, expect, it } from 'vitest';
import { formatSeconds, Progress } from '../../src/cli/progress.ts';

const H = 3_600_000_000_000n;
const START = 1_767_225_600_000_000_000n; // 2026-01-01T00:00:00Z

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 100, write: (t: string) => writes.push(t) } };
}

describe('run progress', () => {
  it('redraws one line in place on a terminal, with sim time, percent and ETA', () => {
    let now = 0;
    const { writes, stream } = fakeStream(true);
    const p = new Progress(stream, START, START + 4n * H, 'perpsim run default', 10_000, () => now);
    now = 2_000;
    p.update(START + H);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^\r\[#+\.+\] perpsim run default 2026-01-01T01:00:00Z  25\.0% ETA 6s\x1b\[K$/);
    now = 2_050;
    p.update(START + 2n * H); // within 100 ms of the last draw: skipped
    expect(writes).toHaveLength(1);
    p.done();
    expect(writes.at(-1)).toBe('\r\x1b[K');
  });

  it('prints occasional plain lines when stderr is not a terminal, none for short runs', () => {
    let now = 0;
    const { writes, stream } = fakeStream(false);
    const p = new Progress(stream, START, START + 4n * H, 'run', 10_000, () => now);
    now = 5_000;
    p.update(START + H);
    expect(writes).toEqual([]);
    now = 10_000;
    p.update(START + 2n * H);
    expect(writes).toEqual(['run 2026-01-01T02:00:00Z  50.0% ETA 10s\n']);
    p.done();
    expect(writes).toHaveLength(1);
  });

  it('adds the records a replay applied and their rate per wall second', () => {
    let now = 0;
    const { writes, stream } = fakeStream(false);
    const p = new Progress(stream, START, START + 4n * H, 'perpsim run replay', 10_000, () => now);
    now = 10_000;
    p.update(START + H, 2_500_000);
    expect(writes).toEqual(['perpsim run replay 2026-01-01T01:00:00Z  25.0% ETA 30s, 2500000 events (250000 events/s)\n']);
  });

  it('formats an ETA in seconds, minutes or hours', () => {
    expect([0.4, 42, 185, 3_720, Number.POSITIVE_INFINITY].map(formatSeconds)).toEqual(['0s', '42s', '3m05s', '1h02m', '?']);
  });
});

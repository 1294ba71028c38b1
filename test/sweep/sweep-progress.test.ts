import { describe, expect, it } from 'vitest';
import { SweepProgress } from '../../src/cli/sweep-progress.ts';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 100, write: (t: string) => writes.push(t) } };
}

describe('sweep progress', () => {
  it('shows done, running and failed of the runs to do, with an ETA from the time per settled run', () => {
    let now = 0;
    const { writes, stream } = fakeStream(true);
    const p = new SweepProgress(stream, 4, 10_000, () => now);
    p.started();
    p.started();
    now = 3_000;
    p.finished(true);
    expect(writes.at(-1)).toMatch(/^\r\[#+\.+\] 1\/4 done, 1 running, 0 failed, ETA 9s\x1b\[K$/);
    now = 3_050;
    p.finished(false); // within 100 ms of the last draw: skipped
    expect(writes).toHaveLength(2);
    expect(p.line(8)).toBe('[####....] 1/4 done, 0 running, 1 failed, ETA 3s');
    p.end();
    expect(writes.at(-1)).toBe('\n');
  });

  it('always draws the last settled run on a terminal, and plain lines only now and then elsewhere', () => {
    let now = 0;
    const tty = fakeStream(true);
    const p = new SweepProgress(tty.stream, 1, 10_000, () => now);
    p.started();
    now = 10;
    p.finished(true);
    expect(tty.writes.at(-1)).toContain('1/1 done, 0 running, 0 failed, ETA 0s');

    const plain = fakeStream(false);
    const q = new SweepProgress(plain.stream, 3, 10_000, () => now);
    q.started();
    q.finished(true);
    expect(plain.writes).toEqual([]);
    now = 10_010;
    q.started();
    expect(plain.writes).toEqual(['[##########....................] 1/3 done, 1 running, 0 failed, ETA 20s\n']);
    q.end();
    expect(plain.writes).toHaveLength(1);
  });
});

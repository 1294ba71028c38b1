import { describe, it, expect } from 'vitest';
import { SimClock, type ScheduledEvent } from '../../src/clock/sim-clock.ts';
import { RandomStream, RandomStreams } from '../../src/random/random-stream.ts';

/** 2026-01-01T00:00:00Z in nanoseconds since the epoch. */
const START = 1_767_225_600_000_000_000n;
const NS = 1_000_000_000n;

/** A clock at START and a log of (nowNs, label) written by `note(label)` callbacks. */
function recordingClock(startNs = START) {
  const clock = new SimClock(startNs);
  const log: [bigint, string][] = [];
  const note = (label: string) => log.push([clock.nowNs, label]);
  return { clock, log, note };
}

describe('SimClock', () => {
  it('runs events in time order and moves now to each', () => {
    const { clock, log, note } = recordingClock();
    clock.scheduleAt(START + 30n, note, 'c');
    clock.scheduleAt(START + 10n, note, 'a');
    clock.scheduleAt(START + 20n, note, 'b');
    expect(clock.runUntilIdle()).toBe(3);
    expect(log).toEqual([[START + 10n, 'a'], [START + 20n, 'b'], [START + 30n, 'c']]);
  });

  it('runs events at the same instant in insertion order', () => {
    const { clock, log, note } = recordingClock();
    const rng = new RandomStream('ties');
    const expected: [bigint, string][] = [];
    for (let i = 0; i < 500; i++) {
      const at = START + BigInt(rng.int(0, 3));
      clock.scheduleAt(at, note, `e${i}`);
      expected.push([at, `e${i}`]);
    }
    clock.runUntilIdle();
    // Array.prototype.sort is stable: equal times keep insertion order.
    expect(log).toEqual(expected.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)));
  });

  it('passes the scheduled argument to the callback', () => {
    const clock = new SimClock();
    const got: { id: number }[] = [];
    clock.scheduleIn(5, (arg: { id: number }) => got.push(arg), { id: 7 });
    clock.step();
    expect(got).toEqual([{ id: 7 }]);
  });

  it('throws when asked to schedule before now, but accepts now itself', () => {
    const clock = new SimClock(START);
    expect(() => clock.scheduleAt(START - 1n, () => {})).toThrow(RangeError);
    expect(() => clock.scheduleAt(-5n, () => {})).toThrow(RangeError);
    expect(() => new SimClock(-1n)).toThrow(RangeError);
    clock.scheduleAt(START, () => {});
    expect(clock.pending).toBe(1);
  });

  it('throws for a negative or non-integer delay', () => {
    const clock = new SimClock(START);
    for (const delay of [-1, 0.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => clock.scheduleIn(delay, () => {}), String(delay)).toThrow(RangeError);
    }
    expect(clock.pending).toBe(0);
  });

  it('does not run a canceled event and reports cancel only once', () => {
    const { clock, log, note } = recordingClock();
    const a = clock.scheduleIn(10, note, 'a');
    const b = clock.scheduleIn(20, note, 'b');
    expect(clock.cancel(a)).toBe(true);
    expect(clock.cancel(a)).toBe(false);
    clock.runUntilIdle();
    expect(log.map(([, label]) => label)).toEqual(['b']);
    expect(clock.cancel(b)).toBe(false);
  });

  it('counts only live events as pending', () => {
    const clock = new SimClock();
    const events = [10, 20, 30].map((d) => clock.scheduleIn(d, () => {}));
    expect(clock.pending).toBe(3);
    clock.cancel(events[1]!);
    expect(clock.pending).toBe(2);
    clock.step();
    expect(clock.pending).toBe(1);
    clock.cancel(events[0]!); // already ran
    expect(clock.pending).toBe(1);
  });

  it('returns false from step when nothing live is left', () => {
    const clock = new SimClock(START);
    expect(clock.step()).toBe(false);
    clock.cancel(clock.scheduleIn(1, () => {}));
    expect(clock.step()).toBe(false);
    expect(clock.nowNs).toBe(START);
  });

  it('runs events exactly at the runUntil boundary, not after, and ends at the boundary', () => {
    const { clock, log, note } = recordingClock();
    clock.scheduleAt(START + 100n, note, 'at');
    clock.scheduleAt(START + 101n, note, 'after');
    expect(clock.runUntil(START + 100n)).toBe(1);
    expect(log).toEqual([[START + 100n, 'at']]);
    expect(clock.nowNs).toBe(START + 100n);
    expect(clock.pending).toBe(1);
    expect(() => clock.runUntil(START + 99n)).toThrow(RangeError);
  });

  it('moves an idle clock to the runUntil boundary', () => {
    const clock = new SimClock(START);
    expect(clock.runUntil(START + 5n * NS + 7n)).toBe(0);
    expect(clock.nowNs).toBe(START + 5n * NS + 7n);
  });

  it('runs events scheduled by running events within the same runUntil', () => {
    const { clock, log, note } = recordingClock();
    clock.scheduleAt(START + 10n, () => {
      note('parent');
      clock.scheduleIn(0, note, 'same instant');
      clock.scheduleIn(5, note, 'inside');
      clock.scheduleIn(11, note, 'beyond');
    });
    expect(clock.runUntil(START + 20n)).toBe(3);
    expect(log).toEqual([[START + 10n, 'parent'], [START + 10n, 'same instant'], [START + 15n, 'inside']]);
    expect(clock.nextEventNs()).toBe(START + 21n);
  });

  it('keeps nowSec, nowNanos and nowNs in agreement', () => {
    const rng = new RandomStream('agree');
    const clock = new SimClock(START + 999_999_990n);
    for (let i = 0; i < 1_000; i++) {
      clock.scheduleIn(rng.int(0, 3_000_000_000), () => {});
      clock.step();
      expect(clock.nowNs).toBe(BigInt(clock.nowSec) * NS + BigInt(clock.nowNanos));
      expect(clock.nowNanos).toBeGreaterThanOrEqual(0);
      expect(clock.nowNanos).toBeLessThan(1_000_000_000);
    }
  });

  it('carries nanoseconds across second boundaries exactly', () => {
    const clock = new SimClock(START + 999_999_999n);
    clock.scheduleIn(1, () => {});
    clock.step();
    expect([clock.nowSec, clock.nowNanos]).toEqual([1_767_225_601, 0]);
    clock.scheduleIn(2_500_000_001, () => {});
    clock.step();
    expect(clock.nowNs).toBe(START + 3n * NS + 500_000_001n);
  });

  it('lands exactly on an absolute time 400 days ahead', () => {
    const clock = new SimClock(START);
    const target = START + 400n * 86_400n * NS + 123_456_789n;
    clock.scheduleAt(target, () => {});
    clock.runUntilIdle();
    expect(clock.nowNs).toBe(target);
    expect([clock.nowSec, clock.nowNanos]).toEqual([Number(target / NS), 123_456_789]);
  });

  it('accumulates relative delays exactly over 400 days', () => {
    const clock = new SimClock(START + 999_999_999n);
    const dayPlusOneNs = 86_400 * 1_000_000_000 + 1;
    const hop = () => {
      if (clock.nowNs < START + 400n * 86_400n * NS) clock.scheduleIn(dayPlusOneNs, hop);
    };
    hop();
    clock.runUntilIdle();
    expect(clock.nowNs).toBe(START + 999_999_999n + 400n * BigInt(dayPlusOneNs));
  });

  it('schedules exactly with the largest safe-integer delay', () => {
    // nanos + delay exceeds 2^53 here; the result must still be exact to the nanosecond.
    for (const startNs of [2n, START + 3n, START + 999_999_999n]) {
      const clock = new SimClock(startNs);
      clock.scheduleIn(Number.MAX_SAFE_INTEGER, () => {});
      expect(clock.nextEventNs(), `from ${startNs}`).toBe(startNs + BigInt(Number.MAX_SAFE_INTEGER));
    }
  });

  it('skips canceled events when reporting the next event time', () => {
    const clock = new SimClock(START);
    expect(clock.nextEventNs()).toBeUndefined();
    const first = clock.scheduleIn(10, () => {});
    clock.scheduleIn(20, () => {});
    clock.cancel(first);
    expect(clock.nextEventNs()).toBe(START + 20n);
    expect(clock.pending).toBe(1);
  });

  it('runs until idle, including events scheduled along the way', () => {
    const { clock, log, note } = recordingClock();
    let left = 5;
    const chain = () => {
      note(`chain ${left}`);
      if (--left > 0) clock.scheduleIn(1_000_000_000, chain);
    };
    clock.scheduleIn(0, chain);
    clock.scheduleIn(2_500_000_000, note, 'side');
    expect(clock.runUntilIdle()).toBe(6);
    expect(log.map(([, l]) => l)).toEqual(['chain 5', 'chain 4', 'chain 3', 'side', 'chain 2', 'chain 1']);
    expect([clock.pending, clock.nowNs]).toEqual([0, START + 4n * NS]);
  });
});

describe('SimClock insertion seqs', () => {
  it('tells the seq the next event takes and, inside each event, that event\'s own seq, for heap and same-instant events alike', () => {
    const clock = new SimClock(START);
    const rng = new RandomStream('seqs');
    const ran: [number, number][] = [];
    const handles: ScheduledEvent[] = [];
    let scheduled = 0;
    expect(clock.runningSeq).toBe(-1);
    const fire = (seqOf: () => number) => {
      ran.push([clock.runningSeq, seqOf()]);
      for (let i = rng.int(0, 2); i > 0 && scheduled < 3_000; i--) schedule();
      if (rng.chance(0.05)) clock.cancel(handles[rng.int(0, handles.length - 1)]!);
    };
    function schedule(): void {
      scheduled++;
      const expected = clock.upcomingSeq;
      // Zero delays go to the now-queue; the rest to the heap, with ties at equal times.
      const delayNs = rng.chance(0.3) ? 0 : rng.int(1, 4);
      const handle: ScheduledEvent = clock.scheduleIn(delayNs, () => fire(() => handle.seq));
      expect(handle.seq).toBe(expected);
      expect(clock.upcomingSeq).toBe(expected + 1);
      handles.push(handle);
    }
    for (let i = 0; i < 5; i++) schedule();
    clock.runUntilIdle();
    expect(ran.length).toBeGreaterThan(1_000);
    for (const [running, own] of ran) expect(running).toBe(own);
  });
});

/** 10,000 scheduled events that schedule (and sometimes cancel) more at random delays. */
function scenario(seed: string): string[] {
  const streams = new RandomStreams(seed);
  const clock = new SimClock(START);
  const log: string[] = [];
  const handles: ScheduledEvent[] = [];
  let scheduled = 0;
  const schedule = (actor: string, delayNs: number) => {
    scheduled++;
    handles.push(clock.scheduleIn(delayNs, fire, `${actor}#${scheduled}`));
  };
  function fire(label: string): void {
    log.push(`${clock.nowNs} ${label}`);
    const actor = label.slice(0, label.indexOf('#'));
    const rng = streams.get(actor);
    const children = rng.int(1, 2);
    for (let i = 0; i < children && scheduled < 10_000; i++) {
      schedule(actor, rng.chance(0.1) ? 0 : Math.round(rng.exponential(300_000_000)));
    }
    if (rng.chance(0.05) && handles.length > 0) clock.cancel(handles[rng.int(0, handles.length - 1)]!);
  }
  for (const actor of ['maker', 'taker', 'noise']) schedule(actor, 0);
  clock.runUntilIdle();
  expect(scheduled).toBe(10_000);
  return log;
}

describe('SimClock determinism', () => {
  it('gives identical logs for two runs of one seed and a different log for another seed', () => {
    const first = scenario('clock-seed-1');
    const second = scenario('clock-seed-1');
    const other = scenario('clock-seed-2');
    expect(first.length).toBeGreaterThan(9_000);
    expect(second).toEqual(first);
    expect(other).not.toEqual(first);
    const times = first.map((line) => BigInt(line.slice(0, line.indexOf(' '))));
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(NS); // the run crosses many seconds
  });
});

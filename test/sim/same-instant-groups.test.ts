import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/clock/sim-clock.ts';
import { PortChannel } from '../../src/sim/port-channel.ts';
import { RequestLane } from '../../src/sim/request-lane.ts';
import { ListLatency } from './list-latency.ts';

// A lane's message joins the clock event of the message before it when nothing could run between
// the two: same channel, same arrival instant, and no event pushed in between at that instant
// (SameInstantGroups). The twin is the same lane with one clock event per message. Random
// schedules of lane messages and other events, with latencies of a few nanoseconds so that
// arrivals meet and other events land on the very instants the lane's messages arrive at, in
// the heap and in the now-queue (zero delays); what runs, when and in which order must be the
// same, and the grouped lane must take fewer clock events.

const START = 1_700_000_000n * 1_000_000_000n;


interface Action {
  atNs: number;
  /** A lane message, or another clock event after `delayNs`. */
  send: boolean;
  delayNs: number;
}

/** Runs the schedule; returns what ran (time, what) in order, and the clock's insertions. */
function run(actions: readonly Action[], latencies: readonly number[], otherDelays: readonly number[], group: boolean): { log: string[]; insertions: number } {
  const clock = new SimClock(START);
  const lane = new RequestLane(clock, new PortChannel(new ListLatency(latencies)), group);
  const log: string[] = [];
  let messages = 0;
  let others = 0;
  const other = (delayNs: number): void => {
    const id = others++;
    clock.postIn(delayNs, () => {
      log.push(`${clock.nowNs - START} other ${id}`);
      // Some other events send on the lane, so a message may be sent while its group waits.
      if (id % 3 === 0) send();
    });
  };
  const send = (): void => {
    const id = messages++;
    lane.post((k: number) => {
      log.push(`${clock.nowNs - START} message ${k}`);
      // A receiver posts at once, as agents do: at the instant itself (now-queue) or later.
      if (k % 2 === 0) other(otherDelays[k % otherDelays.length]!);
      if (k % 5 === 1 && messages < 400) send();
    }, id);
  };
  for (const a of actions) clock.scheduleAt(START + BigInt(a.atNs), () => (a.send ? send() : other(a.delayNs)));
  clock.runUntilIdle();
  return { log, insertions: clock.upcomingSeq };
}

describe('a lane whose messages share a clock event', () => {
  it('runs everything at the same times in the same order as one event per message, with fewer events, over random schedules', () => {
    let fewer = 0;
    let apartJoins = 0;
    const isLastAt = SimClock.prototype.isLastAt;
    SimClock.prototype.isLastAt = function (this: SimClock, where: number, sec: number, nanos: number): boolean {
      const last = isLastAt.call(this, where, sec, nanos);
      if (last) apartJoins++; // a join the consecutive-seq rule alone would not have made
      return last;
    };
    try {
      fc.assert(
        fc.property(
          fc.array(fc.record({ atNs: fc.integer({ min: 0, max: 12 }), send: fc.boolean(), delayNs: fc.constantFrom(0, 0, 1, 2, 3, 5) }), { minLength: 1, maxLength: 60 }),
          fc.array(fc.constantFrom(0, 0, 0, 1, 2, 3, 4, 6), { minLength: 1, maxLength: 8 }),
          fc.array(fc.constantFrom(0, 1, 2, 4), { minLength: 1, maxLength: 5 }),
          (actions, latencies, otherDelays) => {
            const apart = run(actions, latencies, otherDelays, false);
            const grouped = run(actions, latencies, otherDelays, true);
            expect(grouped.log).toEqual(apart.log);
            expect(grouped.insertions).toBeLessThanOrEqual(apart.insertions);
            if (grouped.insertions < apart.insertions) fewer++;
          },
        ),
        { numRuns: 400, seed: 0x5a11 },
      );
    } finally {
      SimClock.prototype.isLastAt = isLastAt;
    }
    // Both ways of joining were taken: the consecutive one, and across events pushed at other instants.
    expect(fewer).toBeGreaterThan(100);
    expect(apartJoins).toBeGreaterThan(100);
  });

  it('starts a new event for a message that arrives at the instant of a group waiting in the now-queue when another event was queued there since', () => {
    const schedule: Action[] = [
      { atNs: 3, send: true, delayNs: 0 }, // its message waits in the now-queue (no latency)
      { atNs: 3, send: false, delayNs: 0 }, // another event at that instant, queued behind it
      { atNs: 3, send: true, delayNs: 0 }, // a message at that instant again: it must run after the other event
    ];
    const apart = run(schedule, [0], [7], false);
    const grouped = run(schedule, [0], [7], true);
    expect(apart.log.slice(0, 3)).toEqual(['3 message 0', '3 other 0', '3 message 1']);
    expect(grouped.log).toEqual(apart.log);
  });

  it('starts a new event for a message that arrives at the instant of a group waiting in the heap when the clock is there with another event queued', () => {
    const schedule: Action[] = [
      { atNs: 1, send: true, delayNs: 0 }, // arrives at 3 (latency 2): waits in the heap
      { atNs: 3, send: false, delayNs: 0 }, // at 3, before the message (pushed earlier): queues another event at 3, after it
      { atNs: 3, send: true, delayNs: 0 }, // a message sent at 3 with no latency: it must run after that event
    ];
    const apart = run(schedule, [2, 0], [7], false);
    const grouped = run(schedule, [2, 0], [7], true);
    expect(apart.log.slice(0, 3)).toEqual(['3 message 0', '3 other 0', '3 message 1']);
    expect(grouped.log).toEqual(apart.log);
  });

  it('starts a new event for a message when an observer held a place in the clock since the message before it (a markout read at their instant would run between the two)', () => {
    const insertions = (hold: boolean): number => {
      const clock = new SimClock(START);
      const lane = new RequestLane(clock, new PortChannel(new ListLatency([5])), true);
      const ran: number[] = [];
      clock.scheduleAt(START, () => {
        lane.post((k: number) => ran.push(k), 0);
        if (hold) clock.holdPlace(); // as MarkoutReader.afterFill: a read that would take the next place
        lane.post((k: number) => ran.push(k), 1);
      });
      clock.runUntilIdle();
      expect(ran).toEqual([0, 1]);
      return clock.upcomingSeq;
    };
    expect(insertions(false)).toBe(2); // the scheduled event, and one event for both messages
    expect(insertions(true)).toBe(3); // one event a message: the held place comes between them
  });
});

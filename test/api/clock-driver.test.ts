import { describe, expect, it } from 'vitest';
import { ClockDriver } from '../../src/api/clock-driver.ts';
import { SimClock } from '../../src/clock/sim-clock.ts';

const START_NS = 1_767_225_600_000_000_000n;
const SEC = 1_000_000_000n;

/** A driver on a clock at START_NS with an injected wall clock at 1,000,000 ms. */
function setup(options: { speed?: number; manual?: boolean } = {}) {
  const wall = { ms: 1_000_000 };
  const clock = new SimClock(START_NS);
  const driver = new ClockDriver(clock, { ...options, wallNow: () => wall.ms });
  return { wall, clock, driver };
}

describe('ClockDriver before start()', () => {
  it('does not jump sim time by the whole wall clock on a sync before start', () => {
    const { clock, driver } = setup();
    driver.sync();
    expect(clock.nowNs).toBe(START_NS);
  });

  it('paces from its construction when synced before start', () => {
    const { wall, clock, driver } = setup({ speed: 2 });
    wall.ms += 1500;
    driver.sync();
    expect(clock.nowNs).toBe(START_NS + 3n * SEC);
  });

  it('advances by exactly the requested seconds before start', () => {
    const { clock, driver } = setup({ manual: true });
    const seen: bigint[] = [];
    clock.scheduleAt(START_NS + 4n * SEC, () => seen.push(clock.nowNs));
    driver.advance(5);
    expect(clock.nowNs).toBe(START_NS + 5n * SEC);
    expect(seen).toEqual([START_NS + 4n * SEC]);
    expect(driver.status()).toEqual({ now_ns: String(START_NS + 5n * SEC), speed: 1, paused: true });
  });

  it('keeps a manual clock still whatever the wall clock does', () => {
    const { wall, clock, driver } = setup({ manual: true });
    wall.ms += 60_000;
    driver.sync();
    driver.start();
    wall.ms += 60_000;
    driver.sync();
    driver.stop();
    expect(clock.nowNs).toBe(START_NS);
  });
});

describe('ClockDriver when an event throws', () => {
  it('stops the clock where the event threw, tells its owner once, and runs nothing after (pacing, advances)', async () => {
    const { wall, clock, driver } = setup({ speed: 1 });
    const ran: bigint[] = [];
    clock.scheduleAt(START_NS + SEC, () => ran.push(clock.nowNs));
    clock.scheduleAt(START_NS + 2n * SEC, () => {
      throw new Error('recording went bad');
    });
    clock.scheduleAt(START_NS + 3n * SEC, () => ran.push(clock.nowNs));
    const told: string[] = [];
    driver.onFailure = (err) => told.push(err.message);
    wall.ms += 5000;
    driver.sync();
    expect(told).toEqual(['recording went bad']);
    expect(ran).toEqual([START_NS + SEC]);
    expect(clock.nowNs).toBe(START_NS + 2n * SEC);
    wall.ms += 5000;
    driver.sync();
    driver.advance(10);
    await driver.advanceInSlices(10);
    expect(ran).toEqual([START_NS + SEC]); // the event after it never runs
    expect(told).toHaveLength(1);
    expect(driver.failure?.message).toBe('recording went bad');
  });

  it('throws the error on when nobody listens (in-process callers see it)', () => {
    const { clock, driver } = setup({ manual: true });
    clock.scheduleAt(START_NS + SEC, () => {
      throw new Error('bad event');
    });
    expect(() => driver.advance(2)).toThrow('bad event');
  });
});

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

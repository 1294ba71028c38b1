import { describe, expect, it } from 'vitest';
import { ExchangeTime } from '../../../src/api/client/exchange-time.ts';

describe('ExchangeTime', () => {
  it('keeps the latest time it has seen and never goes backwards', () => {
    const time = new ExchangeTime();
    time.observeMessage({ t: 'h', ts: 1_767_225_600, tn: 250 });
    time.observeMessage({ t: 'h', ts: 1_767_225_599, tn: 999_999_999 });
    time.observeMessage({ t: 's' }); // no time in it
    expect(time.now()).toBe(1_767_225_600_000_000_250n);
  });

  it('fires timers in due order, ties in the order they were set, once each', () => {
    const time = new ExchangeTime();
    time.observe(1000n);
    const fired: string[] = [];
    time.setTimer(20, () => fired.push('b'));
    time.setTimer(10, () => fired.push('a'));
    time.setTimer(20, () => fired.push('c'));
    time.observe(1015n);
    expect(fired).toEqual(['a']);
    time.observe(1020n);
    time.observe(2000n);
    expect(fired).toEqual(['a', 'b', 'c']);
  });

  it('lets a timer set another that is already due fire in the same pass', () => {
    const time = new ExchangeTime();
    const fired: bigint[] = [];
    time.setTimer(5, () => {
      fired.push(time.now());
      time.setTimer(-1, () => fired.push(time.now()));
    });
    time.observe(100n);
    expect(fired).toEqual([100n, 100n]);
  });
});

import { describe, it, expect } from 'vitest';
import type { InstrumentState } from '../../src/core/types.ts';
import { at, btcConfig, ethConfig, lastFeed, makeVenue, place } from './fixtures.ts';

describe('instrument states', () => {
  it('cancels every resting order of a delisted instrument with xr EXCHANGE_OPTION and accepts no more orders', () => {
    const { venue, feeds, btc, user } = makeVenue({ instruments: [btcConfig(), ethConfig()] });
    const alice = user('alice');
    const bob = user('bob');
    const a = place(venue, alice, 'B', '49000', 1);
    const b = place(venue, bob, 'S', '51000', 2);
    const eth = place(venue, alice, 'B', '99', 1, { symbol: 'ETHUSD-PERP' });
    feeds.clear();

    venue.setInstrumentState(btc, 'DELISTED');

    expect(btc.state).toBe('DELISTED');
    expect(feeds.of(alice)).toEqual([expect.objectContaining({ t: 'c', xr: 'EXCHANGE_OPTION', o: expect.objectContaining({ oid: a.id, o: 'CANCELED', rq: 0 }) })]);
    expect(feeds.of(bob)).toEqual([expect.objectContaining({ t: 'c', xr: 'EXCHANGE_OPTION', o: expect.objectContaining({ oid: b.id, o: 'CANCELED', rq: 0 }) })]);
    expect(btc.book.orderCount).toBe(0);
    expect(venue.openOrders(alice).map((o) => o.id)).toEqual([eth.id]);
    expect(place(venue, bob, 'B', '49000', 1).state).toBe('REJECTED');
    expect(lastFeed(feeds, bob).r).toBe('EXCHANGE_CLOSED');
  });

  it('keeps resting orders through an administrative halt and trades again after it', () => {
    const { venue, feeds, btc, user } = makeVenue();
    const alice = user('alice');
    const bob = user('bob');
    const ask = place(venue, alice, 'S', '50000', 1);
    venue.setInstrumentState(btc, 'HALTED');
    expect(place(venue, bob, 'B', '50000', 1).state).toBe('REJECTED');
    expect(venue.openOrders(alice).map((o) => o.id)).toEqual([ask.id]);

    venue.setInstrumentState(btc, 'OPEN');
    expect(place(venue, bob, 'B', '50000', 1).state).toBe('FILLED');
    expect(feeds.forOrder(ask.id).map((f) => f.t)).toEqual(['n', 'f']);
  });

  it('changes state at the times of the instrument’s schedule, announcing each change', () => {
    const { venue, clock, feeds, btc, user } = makeVenue({
      instruments: [
        btcConfig({
          schedule: [
            { at: '2023-12-31T23:00:00Z', state: 'CLOSED' }, // before the start: ignored
            { at: '2024-01-01T01:00:00Z', state: 'HALTED' },
            { at: '2024-01-01T02:30:00.5Z', state: 'OPEN' },
          ],
        }),
      ],
    });
    const changes: [string, InstrumentState][] = [];
    venue.subscribe({ instrumentStateChanged: (m) => changes.push([String(clock.nowNs), m.state]) });
    venue.start();
    const alice = user('alice');
    expect(btc.state).toBe('OPEN');

    clock.runUntil(at(3600) - 1n);
    expect(btc.state).toBe('OPEN');
    clock.runUntil(at(3600));
    expect(btc.state).toBe('HALTED');
    place(venue, alice, 'B', '49000', 1);
    expect(lastFeed(feeds, alice)).toMatchObject({ t: 'j', r: 'EXCHANGE_CLOSED' });

    clock.runUntil(at(9000));
    expect(btc.state).toBe('HALTED');
    clock.runUntil(at(9000) + 500_000_000n);
    expect(btc.state).toBe('OPEN');
    expect(place(venue, alice, 'B', '49000', 1).state).toBe('NEW');
    expect(changes).toEqual([
      [String(at(3600)), 'HALTED'],
      [String(at(9000) + 500_000_000n), 'OPEN'],
    ]);
  });

  it('keeps a delisted instrument delisted when its trading hours would open it again', () => {
    const { venue, clock, btc, user } = makeVenue({
      instruments: [btcConfig({ tradingHours: { open: '08:00', close: '16:00' } })],
      startNs: at(9 * 3600),
    });
    venue.start();
    venue.setInstrumentState(btc, 'DELISTED');

    clock.runUntil(at(24 * 3600 + 9 * 3600)); // past Monday's close and Tuesday's open
    expect(btc.state).toBe('DELISTED');
    expect(place(venue, user('alice'), 'B', '49000', 1).state).toBe('REJECTED');
  });
});

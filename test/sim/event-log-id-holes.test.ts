import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../src/clock/sim-clock.ts';
import { IdHoles, fillIdHoles } from '../../src/sim/event-log/id-holes.ts';
import { ORDER_ID_BYTES, VenueState } from '../../src/venue/venue-state.ts';

/** Order ids left as holes and written later must be the venue's wire ids, byte for byte. */
describe('order ids written into holes from their numbers', () => {
  const venue = new VenueState(new SimClock(0n));
  const order = fc.record({
    seq: fc.oneof(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: -(2 ** 31), max: 0 }), fc.constantFrom(1, 1023, 1024, -1)),
    sec: fc.oneof(fc.integer({ min: 0, max: 4_000_000_000 }), fc.constant(1_767_225_600)),
    nanos: fc.integer({ min: 0, max: 999_999_999 }),
  });

  it('writes what VenueState.formatOrderId makes, O- for orders and L- for liquidations, each in its own cell', () => {
    fc.assert(
      fc.property(fc.array(order, { minLength: 1, maxLength: 40 }), fc.nat({ max: 7 }), (orders, gap) => {
        const holes = new IdHoles(4); // grows past its first size
        const bytes = new Uint8Array(orders.length * (ORDER_ID_BYTES + gap)).fill(0xff);
        orders.forEach((o, i) => holes.add(i * (ORDER_ID_BYTES + gap), o.seq, o.sec, o.nanos));
        holes.fill(bytes);
        const copied = new Uint8Array(bytes.length).fill(0xff);
        fillIdHoles(copied, holes.copy());
        expect(copied).toEqual(bytes); // the writer thread's path: the same bytes
        orders.forEach((o, i) => {
          const at = i * (ORDER_ID_BYTES + gap);
          expect(Buffer.from(bytes.subarray(at, at + ORDER_ID_BYTES)).toString('latin1')).toBe(venue.formatOrderId(o.seq, o.sec, o.nanos));
          for (let k = 0; k < gap; k++) expect(bytes[at + ORDER_ID_BYTES + k]).toBe(0xff); // nothing outside the cell
        });
      }),
      { numRuns: 300 },
    );
  });

  it('forgets its holes on clear', () => {
    const holes = new IdHoles(2);
    holes.add(0, 5, 1, 0);
    holes.clear();
    expect(holes.count).toBe(0);
    expect(holes.copy().length).toBe(0);
  });
});

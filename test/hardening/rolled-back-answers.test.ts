import { afterEach, describe, expect, it } from 'vitest';
import { errorOf } from '../../src/api/ws/frames.ts';
import { COMMAND_ROLLED_BACK, CommandFailedError } from '../../src/venue/command-log.ts';
import { InjectedFault, setFaultHook } from '../../src/venue/fault-points.ts';
import { json, order, restFixture } from '../api/rest/fixtures.ts';

/** Throws once, at the first reached step named `step`; later commands run clean. */
function failOnceAt(step: string): void {
  let armed = true;
  setFaultHook((reached) => {
    if (armed && reached === step) {
      armed = false;
      throw new InjectedFault(reached);
    }
  });
}

describe('a command rolled back midway, as the client sees it', () => {
  afterEach(() => setFaultHook(undefined));

  it('answers REST with a detail saying nothing changed, and the same order then goes through', async () => {
    const f = await restFixture();
    const auth = await f.bearer();
    const alice = f.exchange.venue.account('alice')!;
    const hashBefore = f.exchange.venue.stateHash();

    failOnceAt('place.rested');
    const failed = await f.post('/orders/insert_order', order({ price: '49000', quantity: 2 }), auth);
    expect(failed.status).toBe(500);
    expect(await json(failed)).toEqual({ detail: COMMAND_ROLLED_BACK });
    expect(f.exchange.venue.stateHash()).toBe(hashBefore);
    expect(f.feeds).toEqual([]);
    expect((await json(await f.post('/orders/get_open_orders', { username: 'alice' }, auth))).orders).toEqual([]);

    const placed = await f.post('/orders/insert_order', order({ price: '49000', quantity: 2 }), auth);
    expect(placed.status).toBe(200);
    const { order_id } = await json(placed);
    expect(f.exchange.venue.findOpenOrder(alice, order_id)).toBeDefined();
  });

  it('answers a websocket request with a code-500 envelope carrying the same message', () => {
    const rolledBack = errorOf(new CommandFailedError(new InjectedFault('trade.candles')));
    expect(rolledBack).toEqual({ code: 500, message: COMMAND_ROLLED_BACK });
    expect(errorOf(new Error('some bug'))).toEqual({ code: 500, message: 'internal error' });
  });
});

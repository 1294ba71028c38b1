import { describe, expect, it } from 'vitest';
import { Exchange } from '../../src/api/exchange.ts';
import { emptyScenario } from './ws/helpers.ts';

describe('Exchange after-run hooks', () => {
  it('runs a hook after each batch of clock events until the function it returned removes it', async () => {
    const exchange = await Exchange.create(emptyScenario(), { manual: true, scryptCost: 1024 });
    let calls = 0;
    const remove = exchange.onAfterRun(() => calls++);
    exchange.driver.advance(1);
    expect(calls).toBeGreaterThan(0);
    const seen = calls;
    remove();
    remove(); // a second call is harmless
    exchange.driver.advance(1);
    expect(calls).toBe(seen);
  });
});

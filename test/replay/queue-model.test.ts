import { describe, expect, it } from 'vitest';
import { logWeight, powerWeight, ProbQueueModel, queueModelOf, RiskAverseQueueModel, takeFillable, type QueueState } from '../../src/replay/l2/queue-model.ts';

const q = (ahead: number): QueueState => ({ ahead, tradedSinceChange: 0 });

describe('queue models', () => {
  it('risk-averse: trades move the order, a shrinking level only caps it, growth changes nothing', () => {
    const m = new RiskAverseQueueModel();
    const s = q(10);
    m.levelChanged(s, 30, 25); // 5 canceled somewhere: not assumed ahead
    expect(s.ahead).toBe(10);
    m.levelChanged(s, 25, 6); // the level now shows less than was ahead
    expect(s.ahead).toBe(6);
    m.levelChanged(s, 6, 50);
    expect(s.ahead).toBe(6);
    m.trade(s, 9);
    expect(takeFillable(s)).toBe(3);
    expect(s.ahead).toBe(0);
  });

  it('prob (power 2): a cancel is taken from the front with probability f(front)/(f(front)+f(back))', () => {
    const m = new ProbQueueModel('p2', powerWeight(2));
    const s = q(4);
    m.levelChanged(s, 10, 5); // front 4, back 6, 5 canceled
    const toFront = 16 / (16 + 36);
    // hftbacktest: front − p·chg + min(back − (1 − p)·chg, 0)
    expect(s.ahead).toBeCloseTo(4 - toFront * 5 + Math.min(6 - (1 - toFront) * 5, 0), 12);
    expect(s.ahead).toBeGreaterThan(0);
    expect(s.ahead).toBeLessThan(4);
  });

  it('prob: lots traded since the last change are not counted again as cancels', () => {
    const m = new ProbQueueModel('p2', powerWeight(2));
    const s = q(4);
    m.trade(s, 3);
    expect(s.ahead).toBe(1);
    m.levelChanged(s, 10, 7); // the trade's 3 lots left the level: no cancel
    expect(s.ahead).toBe(1);
    expect(s.tradedSinceChange).toBe(0);
  });

  it('prob: an order at the very back advances by the whole cancel; what the back cannot absorb comes off the front', () => {
    const back = new ProbQueueModel('p2', powerWeight(2));
    const s = q(10);
    back.levelChanged(s, 10, 7);
    expect(s.ahead).toBe(7);
    const log = new ProbQueueModel('log', logWeight);
    const t = q(2);
    log.levelChanged(t, 3, 0);
    expect(t.ahead).toBe(0);
  });

  it('only whole lots become fillable', () => {
    const s = q(-2.7);
    expect(takeFillable(s)).toBe(2);
    expect(takeFillable(q(0.5))).toBe(0);
  });

  it('names the models a scenario can choose', () => {
    expect(queueModelOf('risk-averse').name).toBe('risk-averse');
    expect(queueModelOf('prob').name).toBe('prob-power-2');
    expect(queueModelOf({ kind: 'prob', weight: 'power', n: 3 }).name).toBe('prob-power-3');
    expect(queueModelOf({ kind: 'prob', weight: 'log' }).name).toBe('prob-log');
  });
});

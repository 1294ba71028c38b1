import type { NewOrder } from '../wire/order.ts';

/**
 * One request-and-answer of an in-process port in flight: what runs at the venue (`op`, called
 * with the port as `this` and `arg`), then what it gave (a value, or the refusal it threw), on
 * its way back to the promise the strategy holds. Records are reused (`RequestPool`), and `op`
 * is usually a method of the port, so a request costs no closure and no outcome object: a
 * market maker sends one every few events.
 */
export class PortRequest {
  op: (arg: unknown) => unknown = unset;
  arg: unknown = undefined;
  /** The new order the request carries, if any: the latency model may depend on it, both ways. */
  order: NewOrder | undefined = undefined;
  resolve: (value: unknown) => void = unset;
  reject: (error: unknown) => void = unset;
  ok = false;
  /** The op's value, or its error when `!ok`. */
  result: unknown = undefined;
  /** The promise the strategy gets, from `take` until the caller returns it. */
  promise: Promise<unknown> | undefined = undefined;
}

function unset(): never {
  throw new Error('a port request record used while free');
}

/** Free request records: a long run sends tens of thousands of requests through a handful of records. */
export class RequestPool {
  private readonly free: PortRequest[] = [];
  /** Promises settled so far (`answer`): the backtest runner reads it after each event. */
  settled = 0;

  /** A record for a new request of `op(arg)`, with a new promise (`promise`) and its resolvers. */
  take(op: (arg: unknown) => unknown, arg: unknown, order: NewOrder | undefined): PortRequest {
    const r = this.free.pop() ?? new PortRequest();
    r.promise = new Promise(capture);
    r.resolve = captured.resolve as (value: unknown) => void;
    r.reject = captured.reject;
    r.op = op;
    r.arg = arg;
    r.order = order;
    return r;
  }

  /** Settles `r`'s promise with its result and gives the record back (cleared: nothing kept alive). */
  answer(r: PortRequest): void {
    const { ok, result, resolve, reject } = r;
    r.op = r.resolve = r.reject = unset;
    r.arg = r.result = r.order = r.promise = undefined;
    this.free.push(r);
    this.settled++;
    if (ok) resolve(result);
    else reject(result);
  }
}

/** The resolvers of the promise `take` made last: the executor is one function, not a closure per call. */
const captured: { resolve: (value: never) => void; reject: (error: unknown) => void } = { resolve: unset, reject: unset };

function capture(resolve: (value: never) => void, reject: (error: unknown) => void): void {
  captured.resolve = resolve;
  captured.reject = reject;
}

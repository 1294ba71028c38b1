import { isPriceText, type NewOrder } from '../wire/order.ts';

/**
 * What is wrong with the shape of an order a strategy handed the in-process port, or undefined.
 * TypeScript strategies cannot get this wrong, but a JavaScript strategy (or a cast) can, and
 * the wire answers such an order with a 422: in-process it is a rejected promise naming the
 * field, never a crash of the venue deep inside price parsing.
 */
export function newOrderProblem(order: NewOrder): string | undefined {
  const o = order as unknown as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null) return 'the order must be an object';
  if (typeof o.symbol !== 'string') return 'symbol must be a string';
  if (!isPriceText(o.price)) return 'price must be a decimal string';
  if (typeof o.quantity !== 'number' || !Number.isSafeInteger(o.quantity)) return 'quantity must be an integer';
  if (o.side !== 'B' && o.side !== 'S') return 'side must be "B" or "S"';
  if (o.timeInForce !== 'GTC' && o.timeInForce !== 'IOC') return 'timeInForce must be "GTC" or "IOC"';
  if (o.postOnly !== undefined && typeof o.postOnly !== 'boolean') return 'postOnly must be a boolean';
  return undefined;
}

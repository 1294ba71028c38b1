/**
 * Nesting bounds of request JSON. A parsed body can be nested thousands deep in a few
 * kilobytes (`[[[[…]]]]`); echoing it in an error (`JSON.stringify`) or walking it recursively
 * then overflows the stack. Every request is checked here, iteratively, before anything
 * touches it: no documented request nests deeper than 2.
 */

/** Deepest nesting of arrays and objects a request may have (a scalar is depth 0). */
export const MAX_JSON_DEPTH = 32;

/** True when `value` nests arrays / objects more than `maxDepth` deep. Iterative: never recurses. */
export function isNestedDeeperThan(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (typeof top.value !== 'object' || top.value === null) continue;
    const depth = top.depth + 1;
    if (depth > maxDepth) return true;
    const children = Array.isArray(top.value) ? top.value : Object.values(top.value);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push({ value: child, depth });
  }
  return false;
}

/** A short description of a request value for an error message (never the whole value). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length <= 32 ? JSON.stringify(value) : `a string of ${value.length} characters`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

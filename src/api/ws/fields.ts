import { WsRequestError, type Frame } from './frames.ts';

/**
 * Field checks for websocket requests. A missing field (absent or null) is a 400 naming it;
 * a value of the wrong type or outside its allowed values is a 400 saying what was expected.
 */

function present(frame: Frame, name: string): unknown {
  const value = frame[name];
  if (value === undefined || value === null) throw new WsRequestError(400, `${name} is required`);
  return value;
}

/** A required string field. */
export function requireString(frame: Frame, name: string): string {
  const value = present(frame, name);
  if (typeof value !== 'string') throw new WsRequestError(400, `${name} must be a string`);
  return value;
}

/** A required string field of length `min`…`max` matching `pattern`. */
export function requirePattern(frame: Frame, name: string, pattern: RegExp, min: number, max: number): string {
  const value = requireString(frame, name);
  if (value.length < min || value.length > max) throw new WsRequestError(400, `${name} must be ${min} to ${max} characters long`);
  if (!pattern.test(value)) throw new WsRequestError(400, `${name} must match ${pattern.source}`);
  return value;
}

/** A required integer field (a safe integer; 1.5 or "1" are refused). */
export function requireInt(frame: Frame, name: string): number {
  const value = present(frame, name);
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new WsRequestError(400, `${name} must be an integer`);
  return value;
}

/** A required boolean field. */
export function requireBool(frame: Frame, name: string): boolean {
  const value = present(frame, name);
  if (typeof value !== 'boolean') throw new WsRequestError(400, `${name} must be a boolean`);
  return value;
}

/** A required field that must be one of `values`. */
export function requireEnum<T extends string>(frame: Frame, name: string, values: readonly T[]): T {
  const value = present(frame, name);
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw new WsRequestError(400, `${name} must be one of ${values.join(', ')}`);
  }
  return value as T;
}

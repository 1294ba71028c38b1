import { isSpeed, MAX_SPEED, type Speed } from '../api/clock-driver.ts';
import { parseDuration } from '../core/time.ts';
import { UsageError } from './usage-error.ts';

// Value parsers for commander options. Each names its flag and the value it got in one line,
// as a UsageError (exit 2), so messages read the same whatever the command. A repeated option
// is refused rather than silently overwritten (commander would keep the last): parsers are
// made per program, so the count is per command line.

/** `--NAME TEXT`, taken as given. */
export function textOption(name: string): (text: string) => string {
  return single(name, (text) => text);
}

/** `--NAME N`: a non-negative safe integer. */
export function integerOption(name: string): (text: string) => number {
  return single(name, (text) => parseInteger(name, text));
}

/** `--NAME D`: a positive duration (`30s`, `15m`, `1h`, `1d`) in nanoseconds. */
export function durationOption(name: string): (text: string) => bigint {
  return single(name, (text) => {
    const ns = parseDuration(text);
    if (ns === undefined || ns <= 0n) throw new UsageError(`--${name} must be a positive duration such as 30m, 1h or 1d, got "${text}"`);
    return ns;
  });
}

/** `--NAME P`: a TCP port, 0 … 65535 (0: the system picks a free one). */
export function portOption(name: string): (text: string) => number {
  return single(name, (text) => {
    const port = parseInteger(name, text);
    if (port > 65535) throw new UsageError(`--${name} must be a port number from 0 to 65535, got "${text}"`);
    return port;
  });
}

/** `--NAME X`: a positive decimal such as `0.01` (kept as text: exact). */
export function positiveDecimalOption(name: string): (text: string) => string {
  return single(name, (text) => {
    if (!/^\d*\.?\d+$/.test(text) || Number(text) <= 0) throw new UsageError(`--${name} must be a positive decimal, got "${text}"`);
    return text;
  });
}

/** `--NAME V`: one of `choices`. */
export function choiceOption<T extends string>(name: string, choices: readonly T[]): (text: string) => T {
  return single(name, (text) => {
    if (!choices.includes(text as T)) {
      throw new UsageError(`--${name} must be ${choices.length === 2 ? choices.join(' or ') : `one of ${choices.join(', ')}`}, got "${text}"`);
    }
    return text as T;
  });
}

/** `--NAME N|max`: a clock speed, sim seconds per wall second. */
export function speedOption(name: string): (text: string) => Speed {
  return single(name, (text) => {
    if (text === 'max') return 'max';
    const speed = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || !isSpeed(speed)) throw new UsageError(`--${name} must be a positive number up to ${MAX_SPEED} or "max", got "${text}"`);
    return speed;
  });
}

function parseInteger(name: string, text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${name} must be a non-negative integer, got "${text}"`);
  return Number(text);
}

function single<T>(name: string, parse: (text: string) => T): (text: string) => T {
  let given = false;
  return (text) => {
    // Commander takes the next word as the value even when it is another option (`--out --seed 1`).
    if (text.startsWith('--')) throw new UsageError(`--${name} needs a value, got the option ${text}`);
    if (given) throw new UsageError(`--${name} given twice`);
    given = true;
    return parse(text);
  };
}

/** An exponentially weighted moving average over irregular samples (time constant `tauSec`). */
export class Ewma {
  private current: number | undefined;
  private lastSec = 0;

  constructor(readonly tauSec: number) {}

  /** Adds a sample `x` taken at `tSec`; returns the new average (the first sample starts it). */
  update(tSec: number, x: number): number {
    if (this.current === undefined) this.current = x;
    else this.current += (1 - Math.exp(-Math.max(0, tSec - this.lastSec) / this.tauSec)) * (x - this.current);
    this.lastSec = tSec;
    return this.current;
  }

  /** The average, or undefined before the first sample. */
  get value(): number | undefined {
    return this.current;
  }
}

/** The average of `key` in `map`, created on first use. */
export function ewmaOf(map: Map<string, Ewma>, key: string, tauSec: number): Ewma {
  let e = map.get(key);
  if (e === undefined) map.set(key, (e = new Ewma(tauSec)));
  return e;
}

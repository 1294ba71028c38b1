import seedrandom from 'seedrandom';

/**
 * A seeded stream of random numbers (Alea, via seedrandom): same seed, same draws, on every
 * machine. The simulation core never calls Math.random.
 */
export class RandomStream {
  private readonly prng: () => number;
  /**
   * The polar method's second normal, kept for the next call (`hasSpare`). A double field and a
   * flag rather than `number | undefined`: a field that is sometimes `undefined` holds each
   * double as a new heap object, so every other draw allocated one (a latency sample per
   * message of a simulation draws a normal).
   */
  private spareNormal = 0;
  private hasSpare = false;

  constructor(readonly seed: string) {
    this.prng = seedrandom.alea(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.prng();
  }

  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max < min) {
      throw new RangeError(`int(${min}, ${max}): bounds must be integers with min <= max`);
    }
    return min + Math.floor(this.prng() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.prng() < p;
  }

  /** One element of a non-empty array, uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty array');
    return items[Math.floor(this.prng() * items.length)]!;
  }

  /** Exponential with the given mean (inter-arrival times of a Poisson process). */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.prng());
  }

  /** Normal with mean `mu` and standard deviation `sigma` (Marsaglia polar method). */
  normal(mu = 0, sigma = 1): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return mu + sigma * this.spareNormal;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.prng() - 1;
      v = 2 * this.prng() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const factor = Math.sqrt((-2 * Math.log(s)) / s);
    this.spareNormal = v * factor;
    this.hasSpare = true;
    return mu + sigma * u * factor;
  }

  /** Pareto with scale `xm` > 0 and shape `alpha` > 0: heavy-tailed sizes. */
  pareto(xm: number, alpha: number): number {
    return xm / Math.pow(1 - this.prng(), 1 / alpha);
  }
}

/**
 * One named stream per actor, each derived from the run seed and the actor's name only, so
 * adding an actor never changes another actor's randomness.
 */
export class RandomStreams {
  private readonly streams = new Map<string, RandomStream>();

  constructor(readonly runSeed: string | number) {}

  /** The stream for `name`, created on first use. */
  get(name: string): RandomStream {
    let stream = this.streams.get(name);
    if (stream === undefined) {
      stream = new RandomStream(`${this.runSeed}/${name}`);
      this.streams.set(name, stream);
    }
    return stream;
  }
}

/**
 * Short- and long-horizon variance of a price's log returns per second, as exponentially
 * weighted averages over irregular steps; and a shock test (one step far beyond both the
 * recent and the long-run standard deviation, so a shift to a more volatile regime is not a
 * shock once the short average has seen it).
 */
export class VolatilityTracker {
  private lastPrice: number | undefined;
  private lastSec = 0;
  private varShort = 0;
  private varLong = 0;
  private samples = 0;

  /** Samples before the long-run variance counts (until then: no shocks, ratio 1). */
  static readonly WARM_UP = 30;

  constructor(
    readonly shortSec: number,
    readonly longSec: number,
  ) {}

  /**
   * Takes a price at time `tSec`. Returns true when this step's return exceeds `shockSigmas`
   * standard deviations, measured by the larger of the short and long variance (after warm-up).
   */
  update(tSec: number, price: number, shockSigmas = Infinity): boolean {
    const last = this.lastPrice;
    const dt = tSec - this.lastSec;
    this.lastPrice = price;
    this.lastSec = tSec;
    if (last === undefined || !(dt > 0) || !(price > 0)) return false;
    const r = Math.log(price / last);
    const perSec = (r * r) / dt;
    const warm = this.samples >= VolatilityTracker.WARM_UP;
    const reference = Math.max(this.varLong, this.varShort);
    const shock = warm && reference > 0 && r * r > shockSigmas * shockSigmas * reference * dt;
    this.samples++;
    if (!warm) {
      // Plain running mean while warming up: an early outlier must not dominate.
      this.varLong += (perSec - this.varLong) / this.samples;
      this.varShort = this.varLong;
      return false;
    }
    // A shock step is kept out of the long-run estimate, or one jump would widen quotes for hours.
    if (!shock) this.varLong += (1 - Math.exp(-dt / this.longSec)) * (perSec - this.varLong);
    this.varShort += (1 - Math.exp(-dt / this.shortSec)) * (perSec - this.varShort);
    return shock;
  }

  /** √(short / long variance): > 1 when recent volatility is above its long-run level. */
  ratio(): number {
    if (this.samples < VolatilityTracker.WARM_UP || this.varLong <= 0) return 1;
    return Math.sqrt(this.varShort / this.varLong);
  }

  /** Long-run variance of log returns per second (0 before any step). */
  get longVariancePerSec(): number {
    return this.varLong;
  }
}

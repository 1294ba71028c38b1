/** Wall-clock ns since the epoch: Date.now() once, then the monotonic clock (never goes back). */
export function wallClockNs(): () => bigint {
  const offset = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
  return () => offset + process.hrtime.bigint();
}

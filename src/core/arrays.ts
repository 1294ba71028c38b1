/**
 * Removes `list[at]`, keeping the order of the rest (no array made, as `splice` makes one). The
 * last slot goes by `pop`, which V8 compiles inline: `length--` was a call into the runtime
 * (~0.6 % of a day's simulation thread, from the agents' order lists and the port hub's sinks).
 */
export function removeAt<T>(list: T[], at: number): void {
  for (let i = at + 1; i < list.length; i++) list[i - 1] = list[i]!;
  list.pop();
}

/**
 * Copies `count` numbers from `from[f]` on to `to[t]` on (a row of numbers and a saved run of
 * it, either way). For cold copies: the undo of a failed command puts rows back with it. The hot
 * saves loop in place or write their copies out (`Account.saveFillRow`): a call there would be
 * one more per command, and one polymorphic site for every kind of array it copies between.
 */
export function copyNumbers(from: ArrayLike<number>, f: number, to: { [i: number]: number }, t: number, count: number): void {
  for (let k = 0; k < count; k++) to[t + k] = from[f + k]!;
}

/**
 * Each key of `defaults`, in its order, with `params`' value where that is defined: what
 * `{ ...defaults, ...params }` reads for those keys once `params`' undefined values are dropped
 * (keys of `params` beyond `defaults` are left out).
 *
 * Why not the spread: objects made by spreading a defaults object and then overriding some of
 * its fields do not keep one hidden class from run to run (V8's object-clone path gave the third
 * batch of an agent kind's parameters a map unlike the first two), so the agents' hot code that
 * reads its parameters (`requote`, `levelSize`, `onIndex`, …) was deoptimized ("wrong map") in a
 * process's later runs, and in a callgrind pass ran unoptimized. Built key by key from an empty
 * object, every agent of a kind gets the same map in every run.
 */
export function withDefaults<T extends object>(defaults: T, params: Partial<T>): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const value = (params as Record<string, unknown>)[key];
    out[key] = value !== undefined ? value : (defaults as Record<string, unknown>)[key];
  }
  return out as T;
}

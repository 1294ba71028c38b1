/**
 * Test-only failure injection at the named steps of a venue command (test/hardening/atomic-
 * commands.test.ts). Off, a step costs one load and compare of `hook`; on, the hook may throw to
 * simulate a failure at that step (a broken invariant, an overflow, a bug), so the test can
 * check that the command then leaves nothing behind.
 */
let hook: ((step: string) => void) | undefined;

/** A step of a command: calls the test hook, if one is installed. */
export function faultPoint(step: string): void {
  if (hook !== undefined) hook(step);
}

/** Installs (or with undefined removes) the hook. Tests only. */
export function setFaultHook(fn: ((step: string) => void) | undefined): void {
  hook = fn;
}

/** The error an injected failure throws (tests tell it from real failures by its class). */
export class InjectedFault extends Error {
  constructor(readonly step: string) {
    super(`injected failure at ${step}`);
  }
}

/**
 * Strategy files are TypeScript; perpsim itself runs as built JavaScript. The TypeScript loader
 * (tsx, a runtime dependency) is registered only when a `.ts` file is about to be imported, so
 * commands that load no strategy never pay for it (~0.4 s at start-up). Registering is
 * idempotent, and a no-op when the process already runs through tsx (a checkout's
 * src/cli/bin.js registers it for perpsim's own sources).
 */
const REGISTERED = Symbol.for('perpsim.tsx-registered');

/** True for the extensions tsx compiles. */
export function needsTypeScriptLoader(file: string): boolean {
  return /\.(ts|mts|cts|tsx)$/i.test(file);
}

/** Registers tsx's ESM and CommonJS hooks once per process. */
export async function ensureTypeScriptLoader(): Promise<void> {
  const flags = globalThis as { [REGISTERED]?: boolean };
  if (flags[REGISTERED] === true) return;
  const [{ register }, { register: registerCjs }] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  register();
  // A strategy file outside an ESM package (no "type": "module" nearby) is compiled as
  // CommonJS, which only the CJS hook can load.
  registerCjs();
  flags[REGISTERED] = true;
}

/** Marks the TypeScript loader as registered (by an entry point that registered it itself). */
export function markTypeScriptLoaderRegistered(): void {
  (globalThis as { [REGISTERED]?: boolean })[REGISTERED] = true;
}

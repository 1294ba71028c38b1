import { readFileSync } from 'node:fs';

/**
 * The package version and the `--version` fast path. Kept apart from main.ts so that the
 * entry points can answer `perpsim --version` without importing commander and the command
 * table (start-up is most of the cost of such a call).
 */

/** The package version (package.json sits two folders up, from src/cli and from dist/cli alike). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** True when the arguments ask for the version alone (what commander would answer with the version and exit 0). */
export function asksVersionOnly(argv: readonly string[]): boolean {
  return argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V');
}

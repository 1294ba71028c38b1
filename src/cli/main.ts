import * as commands from './commands/index.ts';
import { createProgram, CommanderError, exitCodeOf } from './program.ts';
import { UsageError } from './usage-error.ts';
import { packageVersion } from './version.ts';

export { packageVersion } from './version.ts';

/** The `perpsim` program with every command registered. */
export function buildProgram(): ReturnType<typeof createProgram> {
  const program = createProgram(packageVersion());
  for (const register of Object.values(commands)) register(program);
  return program;
}

/**
 * Runs the CLI; returns the process exit code. Usage errors (commander's, and UsageError from a
 * command's checks) are one line on stderr and exit code 2; a file-system error the checks did
 * not foresee is one line and exit code 1. Anything else is a bug and keeps its stack trace.
 */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    if (argv.length === 0) {
      process.stdout.write(program.helpInformation());
      return 0;
    }
    await program.parseAsync(argv, { from: 'user' });
    return program.actionExitCode;
  } catch (e) {
    if (e instanceof CommanderError) return exitCodeOf(e); // commander has written its line (or the help)
    if (e instanceof UsageError || e instanceof RangeError) {
      process.stderr.write(`perpsim: ${oneLine(e.message)}\n`);
      return 2;
    }
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code) && (e as NodeJS.ErrnoException).syscall !== undefined) {
      process.stderr.write(`perpsim: ${oneLine((e as Error).message)}\n`);
      return 1;
    }
    throw e;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

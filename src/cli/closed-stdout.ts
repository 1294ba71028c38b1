/**
 * A reader that stops reading (`perpsim backtest … | head`) closes the pipe, and the command's
 * next write to stdout fails with EPIPE. Node ignores SIGPIPE and raises that as an unhandled
 * 'error' event: a stack trace after output the user asked to cut short. A Unix command ends
 * quietly there, killed by SIGPIPE, and the shell reports status 141 (128 + SIGPIPE), which is
 * what `set -o pipefail` sees of `seq 1e9 | head` too. So: on EPIPE, exit with that status and
 * nothing on stderr. What the command wrote to files before is there; what it had yet to do is
 * not, as with any command a closed pipe ends. Any other stdout error is still thrown.
 */
export const EXIT_BROKEN_PIPE = 141;

interface ErrorSource {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Installs the handler on `stdout` (once per process: the entry points, cli.ts and bin.js, call it). */
export function endQuietlyWhenStdoutCloses(stdout: ErrorSource = process.stdout, exit: (code: number) => void = process.exit): void {
  stdout.on('error', (error) => {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') exit(EXIT_BROKEN_PIPE);
    else throw error;
  });
}

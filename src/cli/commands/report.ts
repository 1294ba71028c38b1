import type { PerpsimCommand } from '../program.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('report')
    .summary('stylized facts of an event log next to typical values of liquid perps')
    .description('Measures the stylized facts (spreads, depth, return autocorrelation and kurtosis, basis, funding) of an event log and prints them per symbol and pooled, next to what liquid perpetual markets typically show.')
    .argument('[path]', 'a run directory or an events.arrow file (default: the latest out/run-*)')
    .option('--compare <runs...>', 'instead: two backtests (output directories or report.json files) side by side, every metric and B − A (default: off)')
    .action(async (path: string | undefined, opts: { compare?: string[] }) => {
      if (opts.compare !== undefined) {
        const { compareCommand } = await import('../compare-command.ts');
        return compareCommand(path === undefined ? opts.compare : [...opts.compare, path]);
      }
      const { reportCommand } = await import('../report-command.ts');
      return reportCommand(path);
    });
}

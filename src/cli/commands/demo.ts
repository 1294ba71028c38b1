import type { PerpsimCommand } from '../program.ts';
import { integerOption } from '../option-parsers.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('demo')
    .summary('a short seeded random market on the default instruments, printed')
    .description('Runs a seeded random market (8 random traders on BTCUSD-PERP and ETHUSD-PERP) and prints orders, trades, feeds, the final books and the state_hash.')
    .option('--seed <n>', 'random seed (default: 42)', integerOption('seed'))
    .option('--hours <h>', 'hours of simulated time (default: 9)', integerOption('hours'))
    .action(async (opts: { seed?: number; hours?: number }) => {
      const { demoCommand } = await import('../demo-command.ts');
      return demoCommand(opts.seed ?? 42, opts.hours ?? 9);
    });
}

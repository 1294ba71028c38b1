import type { PerpsimCommand } from '../program.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('scenarios')
    .summary('list the built-in scenarios: name, default duration, what each shows')
    .description('Lists the built-in scenarios with their default duration (what run and backtest simulate without --duration) and what each shows.')
    .action(async () => {
      const { scenariosCommand } = await import('../scenarios-command.ts');
      return scenariosCommand();
    });
}

import type { PerpsimCommand } from '../program.ts';
import { textOption } from '../option-parsers.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('fork')
    .summary('the venue of a journaled server at any journaled instant, as a new data directory')
    .description(
      'Copies the journal of DIR (perpsim serve --data-dir DIR) up to sim time --at into a new data directory, rebuilds the venue there to check it and prints its state hash; perpsim serve --data-dir DIR2 continues from that instant.',
    )
    .argument('<dir>', 'data directory of a journaled server')
    .requiredOption('--at <time>', 'sim time to fork at: RFC 3339 (2026-01-01T08:00:00Z) or integer nanoseconds (required)', textOption('at'))
    .requiredOption('--out <dir>', 'new data directory for the fork (required)', textOption('out'))
    .action(async (dir: string, opts: { at: string; out: string }) => {
      const { forkCommand } = await import('../fork-command.ts');
      return forkCommand(dir, opts);
    });
}

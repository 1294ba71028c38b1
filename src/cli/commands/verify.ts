import { Argument } from 'commander';
import type { PerpsimCommand } from '../program.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('verify')
    .summary('replay LOBSTER messages and check the book against the orderbook file')
    .description(
      'Replays LOBSTER messages order by order and compares the book with the orderbook file after every row; ends with "rows: N matched: M". Exit 0 when every row matched, 1 on a mismatch.',
    )
    .addArgument(new Argument('<kind>', 'what to verify').choices(['lobster']))
    .argument('<files...>', 'MESSAGE.csv ORDERBOOK.csv, or the sample SAMPLE.zip')
    .action(async (kind: string, files: string[]) => {
      const { runVerifyCommand } = await import('../../replay/verify-command.ts');
      return runVerifyCommand([kind, ...files], { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
    });
}

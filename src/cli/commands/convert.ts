import type { PerpsimCommand } from '../program.ts';
import type { ConvertRequest } from '../convert-command.ts';
import { choiceOption, positiveDecimalOption, textOption } from '../option-parsers.ts';

/** The formats `convert` reads: `SOURCE_FORMATS` of replay/market-sources.ts (a test keeps them equal; listed here so --help loads nothing heavy). */
export const CONVERT_FROM = ['tardis', 'binance', 'lobster', 'perpsim', 'recording', 'arrow'] as const;

export function register(program: PerpsimCommand): void {
  program
    .command('convert')
    .summary('any supported recording (or several, merged by time) as normalized market records')
    .description(
      'Reads tardis CSVs, Binance raw captures and data dumps, Bybit order book dumps, freqtrade mark and funding JSON, LOBSTER files, perpsim event logs, perpsim recordings or normalized Arrow and CSV files and writes normalized market records as Arrow or CSV. Several inputs are merged by receive time. A bad row stops it with one line naming file, line and column (exit 1).',
    )
    .argument('<inputs...>', 'input files')
    .requiredOption('--to <format>', 'output format: arrow or csv (required)', choiceOption('to', ['arrow', 'csv'] as const))
    .requiredOption('--out <file>', 'output file (required; replaced if it exists)', textOption('out'))
    .option('--from <format>', `input format: ${CONVERT_FROM.join(', ')} (default: told from the files)`, choiceOption('from', CONVERT_FROM))
    .option('--tick-size <t>', 'price step, needed for tardis, Binance, Bybit, freqtrade and normalized CSV inputs (default: none)', positiveDecimalOption('tick-size'))
    .option('--lot-size <l>', 'quantity step, needed for tardis, Binance, Bybit, freqtrade and normalized CSV inputs (default: none)', positiveDecimalOption('lot-size'))
    .option('--symbol <s>', 'symbol of a Binance capture (default: from the file name)', textOption('symbol'))
    .option('--skip-bad-rows', 'count and skip bad rows instead of stopping (default: off)')
    .action(async (inputs: string[], opts: Omit<ConvertRequest, 'inputs' | 'skipBadRows'> & { skipBadRows?: boolean }) => {
      const { convertCommand } = await import('../convert-command.ts');
      return convertCommand({ ...opts, inputs, skipBadRows: opts.skipBadRows === true });
    });
}

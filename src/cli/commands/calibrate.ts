import type { PerpsimCommand } from '../program.ts';
import type { CalibrateRequest } from '../calibrate-command.ts';
import { choiceOption, durationOption, positiveDecimalOption, textOption } from '../option-parsers.ts';
import { CONVERT_FROM } from './convert.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('calibrate')
    .summary('fit a scenario to a recording and compare their market facts')
    .description(
      'Fits a scenario to a recording from its market facts — index volatility and jumps, maker spread, levels and sizes, noise-trader rate and size tail — writes it to --out, then runs it for --compare and prints its facts beside the recording\'s.',
    )
    .argument('<files...>', 'the recording (any format the replay reads; several files merged by time)')
    .requiredOption('--out <file>', 'the fitted scenario JSON (required; replaced if it exists)', textOption('out'))
    .option('--from <format>', `input format: ${CONVERT_FROM.join(', ')} (default: told from the files)`, choiceOption('from', CONVERT_FROM))
    .option('--tick-size <t>', 'price step, needed for tardis, Binance, Bybit, freqtrade and normalized CSV inputs (default: none)', positiveDecimalOption('tick-size'))
    .option('--lot-size <l>', 'quantity step, needed for tardis, Binance, Bybit, freqtrade and normalized CSV inputs (default: none)', positiveDecimalOption('lot-size'))
    .option('--symbol <s>', 'symbol of a Binance capture (default: from the file name)', textOption('symbol'))
    .option('--fit <symbol>', 'the recorded symbol to fit (default: the first by name)', textOption('fit'))
    .option('--compare <d>', 'sim time of the comparison run, e.g. 10m (default: 10m)', durationOption('compare'))
    .option('--json', 'print JSON instead of tables (default: off)')
    .action(async (files: string[], opts: Omit<CalibrateRequest, 'files' | 'json'> & { json?: boolean }) => {
      const { calibrateCommand } = await import('../calibrate-command.ts');
      return calibrateCommand({ ...opts, files, json: opts.json === true });
    });
}

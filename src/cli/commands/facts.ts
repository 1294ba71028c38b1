import type { PerpsimCommand } from '../program.ts';
import type { FactsRequest } from '../facts-command.ts';
import { choiceOption, integerOption, positiveDecimalOption, textOption } from '../option-parsers.ts';
import { CONVERT_FROM } from './convert.ts';
import { addScenarioOptions, type ScenarioOptions } from './scenario-options.ts';

type FactsOptions = ScenarioOptions & Omit<FactsRequest, 'files' | 'targets' | 'json' | 'skipBadRows' | 'horizonSec'> & { horizon?: number; targets?: boolean; json?: boolean; skipBadRows?: boolean };

export function register(program: PerpsimCommand): void {
  const cmd = program
    .command('facts')
    .summary('market facts of recordings and/or a scenario run, side by side')
    .description(
      'Measures one set of market facts — spread (share at 1 tick), depth within 1/2/5/10 ticks and bps of the mid, trade sizes and inter-arrival times, return tail index and autocorrelations, volume–|r| correlation, basis and funding — on any recording the replay reads (several files merged by receive time), on perpsim event logs and on a scenario run in-process, printed side by side. --targets checks the BTC-like realism targets on the simulated symbols.',
    )
    .argument('[files...]', 'recordings or event logs (default: none; then --scenario is needed)');
  addScenarioOptions(cmd, "the scenario's duration; a day of default takes minutes");
  cmd
    .option('--from <format>', `input format: ${CONVERT_FROM.join(', ')} (default: told from the files)`, choiceOption('from', CONVERT_FROM))
    .option('--tick-size <t>', 'price step, needed for tardis, Binance, Bybit, freqtrade and normalized CSV inputs (default: none)', positiveDecimalOption('tick-size'))
    .option('--lot-size <l>', 'quantity step, needed for tardis, Binance, Bybit, freqtrade and normalized CSV inputs (default: none)', positiveDecimalOption('lot-size'))
    .option('--symbol <s>', 'symbol of a Binance capture (default: from the file name)', textOption('symbol'))
    .option('--horizon <sec>', 'return horizon in seconds (default: 60)', integerOption('horizon'))
    .option('--targets', 'check the BTC-like realism targets on each simulated symbol (default: off)')
    .option('--json', 'print JSON instead of a table (default: off)')
    .option('--skip-bad-rows', 'count and skip bad rows instead of stopping (default: off)')
    .action(async (files: string[], opts: FactsOptions) => {
      const { factsCommand } = await import('../facts-command.ts');
      const { horizon, targets, json, skipBadRows, ...rest } = opts;
      const request: FactsRequest = { ...rest, files, targets: targets === true, json: json === true, skipBadRows: skipBadRows === true };
      if (horizon !== undefined) request.horizonSec = horizon;
      return factsCommand(request);
    });
}

import type { PerpsimCommand } from '../program.ts';
import type { ImpactRequest } from '../impact-command.ts';
import { durationOption, integerOption, textOption } from '../option-parsers.ts';

export function register(program: PerpsimCommand): void {
  program
    .command('impact')
    .summary('price impact of metaorders of growing size against the same seeded run without them')
    .description(
      'Buys metaorders of growing size (child IOC buys every few seconds) on a seeded scenario and measures each against the same run without it: the peak impact on the mid and the cost of the fills, in bps, with the log-log slopes of the curve (1 linear, 0.5 square-root).',
    )
    .option('--scenario <name|file>', 'built-in scenario name or a scenario JSON file (default: default)', textOption('scenario'))
    .option('--seed <n>', "random seed (default: the scenario's seed)", integerOption('seed'))
    .option('--symbol <s>', "instrument bought (default: the scenario's first)", textOption('symbol'))
    .option('--sizes <lots>', 'metaorder sizes, ascending, comma-separated (default: 4,16,64,256)', textOption('sizes'))
    .option('--child-lots <n>', 'child order size in lots (default: half the smallest size)', integerOption('child-lots'))
    .option('--every <sec>', 'seconds between child orders (default: 1)', integerOption('every'))
    .option('--warmup <d>', 'sim time before the first metaorder (default: 10m)', durationOption('warmup'))
    .option('--repeats <n>', 'metaorders per size, at spaced start times (default: 4)', integerOption('repeats'))
    .option('--json', 'print JSON instead of a table (default: off)')
    .action(async (opts: Omit<ImpactRequest, 'json' | 'sizes' | 'everySec'> & { sizes?: string; every?: number; json?: boolean }) => {
      const { impactCommand, parseSizes } = await import('../impact-command.ts');
      const { sizes, every, json, ...rest } = opts;
      const request: ImpactRequest = { ...rest, json: json === true };
      if (sizes !== undefined) request.sizes = parseSizes(sizes);
      if (every !== undefined) request.everySec = every;
      return impactCommand(request);
    });
}

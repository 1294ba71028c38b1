import type { PerpsimCommand } from '../program.ts';
import { textOption } from '../option-parsers.ts';
import type { RunRequest } from '../run-command.ts';
import { addReplayOptions, addScenarioOptions, DEFAULT_SCENARIO, replayRequest, type ReplayOptionValues, type ScenarioOptions } from './scenario-options.ts';

export function register(program: PerpsimCommand): void {
  const cmd = program
    .command('run')
    .summary('run a scenario headless as fast as possible; writes the event log and summary')
    .description(
      'Runs a scenario headless as fast as the machine allows (progress on stderr) and writes DIR/events.arrow (the event log) and DIR/summary.json; the last stdout line is state_hash. With --replay, the market comes from recorded L2 data. A run of default simulates a day and writes about 210 MB: --duration 1h is a good start.',
    );
  addScenarioOptions(cmd);
  cmd.option('--out <dir>', 'output directory (default: out/run-<scenario>-<seed>)', textOption('out'));
  cmd.option('--quiet', 'no progress lines on stderr (default: progress every 10 s of wall time, with recorded events and events/s on a replay)');
  addReplayOptions(cmd).action(async (opts: ScenarioOptions & ReplayOptionValues & { out?: string; quiet?: boolean }) => {
    const { runCommand } = await import('../run-command.ts');
    const request: RunRequest = { scenario: opts.scenario ?? DEFAULT_SCENARIO };
    const replay = replayRequest(opts);
    if (replay !== undefined) request.replay = replay;
    if (opts.seed !== undefined) request.seed = opts.seed;
    if (opts.duration !== undefined) request.durationNs = opts.duration;
    if (opts.out !== undefined) request.outDir = opts.out;
    if (opts.quiet === true) request.quiet = true;
    return runCommand(request);
  });
}

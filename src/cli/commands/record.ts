import type { PerpsimCommand } from '../program.ts';
import { choiceOption, durationOption, positiveDecimalOption, textOption } from '../option-parsers.ts';
import type { RecordRequest } from '../record-command.ts';

/** The levels `record` takes: `RECORD_LEVELS` of replay/md-recorder.ts (a test keeps them equal; listed here so --help loads nothing heavy). */
export const RECORD_LEVEL_CHOICES = ['LEVEL_1', 'LEVEL_2'] as const;

export function register(program: PerpsimCommand): void {
  program
    .command('record')
    .summary("record a server's market-data websocket into an Arrow file of normalized records")
    .description(
      "Connects to the market-data websocket of any server speaking the interface, subscribes and writes every message as normalized market records (Arrow IPC), until --duration (wall time), Ctrl-C or the server closing the socket. Exit 1 when connecting, logging in or subscribing fails.",
    )
    .requiredOption('--url <ws-url>', 'market-data websocket, e.g. ws://127.0.0.1:8080/md/ws (required)', textOption('url'))
    .requiredOption('--symbols <a,b>', 'comma-separated symbols (required)', textOption('symbols'))
    .requiredOption('--out <file>', 'output Arrow file (required; replaced if it exists)', textOption('out'))
    .option('--level <level>', 'LEVEL_1 or LEVEL_2 (default: LEVEL_2)', choiceOption('level', RECORD_LEVEL_CHOICES))
    .option('--duration <d>', 'wall time to record, e.g. 10m (default: until Ctrl-C or the server closes)', durationOption('duration'))
    .option('--username <u>', 'user for the token (default: none, with --password)', textOption('username'))
    .option('--password <p>', 'password for the token (default: none, with --username)', textOption('password'))
    .option('--tick-size <t>', 'price step (default: from GET /auth/instruments)', positiveDecimalOption('tick-size'))
    .action(async (opts: Omit<RecordRequest, 'durationNs' | 'level'> & { duration?: bigint; level?: RecordRequest['level'] }) => {
      const { recordCommand } = await import('../record-command.ts');
      const { duration, level, ...rest } = opts;
      return recordCommand({ ...rest, level: level ?? 'LEVEL_2', ...(duration === undefined ? {} : { durationNs: duration }) });
    });
}

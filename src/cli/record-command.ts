import { MarketDataRecorder, RECORD_LEVELS, RecorderError, type RecordLevel } from '../replay/md-recorder.ts';
import { durationFlag, parseFlags, UsageError } from './flags.ts';
import { wallClockNs } from './wall-clock.ts';

/**
 * `perpsim record --url ws://HOST/md/ws --symbols A,B --level LEVEL_2 --out FILE.arrow
 * [--duration D] [--username U --password P] [--tick-size T]`: records the market-data socket
 * into a normalized Arrow file until the duration (wall time) ends, Ctrl-C / SIGTERM, or the
 * server closes the socket. Prints one summary line.
 *
 * @returns 0 when the recording ended cleanly, 1 when connecting, logging in or subscribing
 *   failed, or a message could not be recorded.
 */
export async function recordCommand(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['url', 'symbols', 'level', 'out', 'duration', 'username', 'password', 'tick-size']);
  const need = (name: string): string => {
    const value = flags.get(name);
    if (value === undefined) throw new UsageError(`--${name} is required (perpsim record --url ws://HOST/md/ws --symbols A,B --level LEVEL_2 --out FILE.arrow)`);
    return value;
  };
  const url = need('url');
  const symbols = need('symbols').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (symbols.length === 0) throw new UsageError('--symbols needs at least one symbol');
  const level = flags.get('level') ?? 'LEVEL_2';
  if (!RECORD_LEVELS.includes(level as RecordLevel)) throw new UsageError(`--level must be ${RECORD_LEVELS.join(' or ')}, got "${level}"`);
  const out = need('out');
  const durationNs = durationFlag(flags, 'duration');
  const username = flags.get('username');
  const password = flags.get('password');
  if ((username === undefined) !== (password === undefined)) throw new UsageError('give --username and --password together');

  let recorder: MarketDataRecorder;
  try {
    recorder = new MarketDataRecorder({ url, symbols, level: level as RecordLevel, out, username, password, tickSize: flags.get('tick-size'), now: wallClockNs() });
    await recorder.start();
  } catch (e) {
    if (!(e instanceof RecorderError)) throw e;
    process.stderr.write(`perpsim: ${e.message}\n`);
    return 1;
  }
  process.stderr.write(`recording ${symbols.join(',')} ${level} from ${url} to ${out}${durationNs === undefined ? '' : ` for ${flags.get('duration')}`} (Ctrl-C stops)\n`);
  const stop = () => void recorder.stop();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const timer = durationNs === undefined ? undefined : setTimeout(stop, Number(durationNs / 1_000_000n));
  try {
    const summary = await recorder.done;
    process.stdout.write(`recorded ${summary.messages} messages, ${summary.rows} records, ${summary.bytes} bytes to ${out}${summary.reason === 'closed' ? ' (the server closed the socket)' : ''}\n`);
  } finally {
    clearTimeout(timer);
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  if (recorder.error !== undefined) {
    process.stderr.write(`perpsim: ${recorder.error.message}\n`);
    return 1;
  }
  return 0;
}

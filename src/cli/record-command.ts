import { formatDuration } from '../core/time.ts';
import { MarketDataRecorder, RecorderError, type RecordLevel } from '../replay/md-recorder.ts';
import { prepareOutFile } from './out-path.ts';
import { UsageError } from './usage-error.ts';
import { wallClockNs } from './wall-clock.ts';

/** What `perpsim record` was asked to do (flags parsed by `commands/record.ts`). */
export interface RecordRequest {
  url: string;
  /** Comma-separated symbols. */
  symbols: string;
  level: RecordLevel;
  out: string;
  durationNs?: bigint;
  username?: string;
  password?: string;
  tickSize?: string;
}

/**
 * `perpsim record --url ws://HOST/md/ws --symbols A,B --level LEVEL_2 --out FILE.arrow
 * [--duration D] [--username U --password P] [--tick-size T]`: records the market-data socket
 * into a normalized Arrow file until the duration (wall time) ends, Ctrl-C / SIGTERM, or the
 * server closes the socket. Prints one summary line.
 *
 * @returns 0 when the recording ended cleanly, 1 when connecting, logging in or subscribing
 *   failed, or a message could not be recorded.
 */
export async function recordCommand(request: RecordRequest): Promise<number> {
  const { url, level, out, durationNs, username, password } = request;
  const symbols = request.symbols.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (symbols.length === 0) throw new UsageError('--symbols needs at least one symbol');
  if ((username === undefined) !== (password === undefined)) throw new UsageError('give --username and --password together');
  prepareOutFile('--out', out);

  let recorder: MarketDataRecorder;
  try {
    recorder = new MarketDataRecorder({ url, symbols, level, out, username, password, tickSize: request.tickSize, now: wallClockNs() });
    await recorder.start();
  } catch (e) {
    if (!(e instanceof RecorderError)) throw e;
    process.stderr.write(`perpsim: ${e.message}\n`);
    return 1;
  }
  process.stderr.write(`recording ${symbols.join(',')} ${level} from ${url} to ${out}${durationNs === undefined ? '' : ` for ${formatDuration(durationNs)}`} (Ctrl-C stops)\n`);
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

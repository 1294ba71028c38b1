import { openLobster } from './lobster-files.ts';
import { readLobster } from './lobster-reader.ts';
import { verifyLobster } from './lobster-verify.ts';
import { ReplayError } from './replay-error.ts';

/** Where the command writes: stdout and stderr in the CLI, buffers in tests. */
export interface CommandOutput {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * `perpsim verify lobster <MESSAGE.csv ORDERBOOK.csv | SAMPLE.zip>`: replays the messages into
 * the order book and compares it with the orderbook file after every row. Prints the first
 * mismatch (row, expected, got) if any, and ends with `rows: N matched: M`.
 *
 * @returns the exit code: 0 when every row matched, 1 on a mismatch, 2 on bad input (a
 *   one-line message on stderr).
 */
export async function runVerifyCommand(args: readonly string[], io: CommandOutput): Promise<number> {
  const [kind, ...paths] = args;
  if (kind !== 'lobster' || paths.length < 1 || paths.length > 2 || paths.some((p) => p.startsWith('-'))) {
    io.err('perpsim: usage: perpsim verify lobster <MESSAGE.csv ORDERBOOK.csv | SAMPLE.zip>\n');
    return 2;
  }
  try {
    const files = await openLobster(paths);
    const result = await verifyLobster(readLobster(files), files.levels);
    if (result.rows === 0) throw new ReplayError(files.messages.name, undefined, undefined, 'no rows');
    io.out(`${files.ticker} ${files.date}, ${files.levels} level${files.levels === 1 ? '' : 's'} per side\n`);
    const mismatch = result.firstMismatch;
    if (mismatch !== undefined) {
      io.out(`first mismatch at row ${mismatch.row}\n  expected: ${mismatch.expected}\n  got:      ${mismatch.got}\n`);
    }
    const s = result.stats;
    io.out(
      `rows completed from the orderbook file beyond the previous window: ${s.revealRows} ` +
        `(${s.revealedLevels} levels); messages on orders unknown at their price: ${s.unknownOrderMessages}; anomalies: ${result.anomalyCount}\n`,
    );
    for (const a of result.anomalies.slice(0, 5)) io.out(`  ${a}\n`);
    io.out(`rows: ${result.rows} matched: ${result.matched}\n`);
    return result.matched === result.rows ? 0 : 1;
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
    io.err(`perpsim: ${e.message.replace(/\s*\n\s*/g, ' ')}\n`);
    return 2;
  }
}

/**
 * `book.mix` as whole passes for before/after comparisons and profiles (bench/README "How a
 * case is measured"): bundle it with esbuild, run each tree in its own process, alternate the
 * trees. Prints the CPU ms of every pass (a fresh book each, built before the collection, as
 * the bench does), for `OrderBook` (`book`) or the floor (`ref`).
 * Usage: node --expose-gc bundle.mjs book|ref [passes=8]
 */
import { BookEvents } from '../src/book/book-events.ts';
import { OrderBook } from '../src/book/order-book.ts';
import { OWNERS, generateMix, referenceBookFor, replayMix, replayMixOnReference } from './book-mix.ts';

const which = process.argv[2] ?? 'book';
const passes = Number(process.argv[3] ?? 8);
const mix = generateMix('bench/book.mix', OWNERS);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const out = new BookEvents();

const ms: number[] = [];
for (let i = 0; i < passes; i++) {
  // The fresh book is built before the collection (bench/README "Pitfalls").
  const book = which === 'ref' ? referenceBookFor(mix) : new OrderBook();
  gc();
  const before = process.cpuUsage();
  if (book instanceof OrderBook) replayMix(book, mix, out, false);
  else replayMixOnReference(book, mix);
  const used = process.cpuUsage(before);
  ms.push((used.user + used.system) / 1000);
}
const best = Math.min(...ms.slice(2));
console.log(`${which} ms/pass: ${ms.map((x) => x.toFixed(1)).join(' ')}; best after two ${best.toFixed(1)} (${(1000 / best).toFixed(2)} M cpu ops/s)`);

/**
 * `venue.mix` as whole passes for before/after comparisons (bench/README "How a case is
 * measured"): bundle it with esbuild, run each tree in its own process, alternate the trees.
 * Prints the CPU seconds of every pass (a fresh venue each), then the bare book's on the same
 * commands. Usage: node --expose-gc bundle.mjs [passes=5]
 */
import { PASS_OPS, replayOnFreshBook } from './book-mix.ts';
import { cpuSeconds } from './harness.ts';
import { freshVenue, replayVenue, venueWorkload } from './venue.bench.ts';

const passes = Number(process.argv[2] ?? 5);
const mix = venueWorkload();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const venueS: number[] = [];
for (let i = 0; i < passes; i++) {
  const run = freshVenue(false);
  const seqs = new Float64Array(mix.places.length + 1);
  gc();
  venueS.push(cpuSeconds(() => replayVenue(run, mix, seqs)));
}
const bookS: number[] = [];
for (let i = 0; i < 3; i++) {
  gc();
  bookS.push(cpuSeconds(() => replayOnFreshBook(mix)));
}
const best = (xs: number[]) => Math.min(...xs.slice(1));
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(' ');
console.log(`venue s/pass: ${fmt(venueS)}; best after first ${best(venueS).toFixed(3)} (${(PASS_OPS / best(venueS) / 1e6).toFixed(2)} M orders/s)`);
console.log(`book s/pass: ${fmt(bookS)}; ratio ${(Math.min(...bookS) / best(venueS)).toFixed(3)}`);

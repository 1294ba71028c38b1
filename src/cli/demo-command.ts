import { runDemo } from '../sim/demo.ts';

/** `perpsim demo`: a short seeded market on the embedded default instruments, printed. */
export function demoCommand(seed: number, hours: number): number {
  const r = runDemo(seed, hours * 3600);
  const out = process.stdout;
  out.write(`perpsim demo: seed ${seed}, ${hours} h of simulated time, 8 random traders on 2 perps\n`);
  out.write(`orders ${r.orders}, trades ${r.trades}, volume ${r.volumeLots} contracts, funding settlements ${r.fundingSettlements}\n`);
  out.write(`feeds: ${Object.entries(r.feeds).sort().map(([t, n]) => `${t}=${n}`).join(' ')}\n`);
  for (const m of r.markets) {
    out.write(`${m.symbol}: last ${m.last}, mark ${m.mark}, best bid ${m.bid}, best ask ${m.ask}, ${m.depth} resting orders\n`);
  }
  out.write(`state_hash: ${r.stateHash}\n`);
  return 0;
}

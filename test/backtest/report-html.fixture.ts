import { formatScaled } from '../../src/core/money.ts';
import { RandomStream } from '../../src/random/random-stream.ts';
import type { ReportFill, ReportHtmlInput } from '../../src/backtest/report-html/input.ts';

/**
 * A realistic report input built in the test: a market maker on BTCUSD-PERP (and a little
 * ETHUSD-PERP) over `seconds` of 1-second samples. Prices move as a random walk in ticks; the
 * strategy fills against it and equity is marked exactly in cents (integers), so the strings
 * look like the runner's.
 */
export const START_NS = 1_758_672_000_000_000_000n; // 2025-09-24T00:00:00Z

export function sampleReportInput(seconds: number, seed = 'report-fixture'): ReportHtmlInput {
  const rnd = new RandomStream(seed);
  const cents = (v: bigint): string => formatScaled(v, 2);
  const equity: { tNs: string; equity: string }[] = [];
  const btcPrice: { tNs: string; price: string }[] = [];
  const ethPrice: { tNs: string; price: string }[] = [];
  const btcPos: { tNs: string; qty: string }[] = [];
  const ethPos: { tNs: string; qty: string }[] = [];
  const fills: ReportFill[] = [];
  let btc = 6_000_000n; // cents (60 000.00)
  let eth = 250_000n;
  let cashCents = 10_000_000n; // 100 000.00
  let posBtc = 0n;
  let posEth = 0n;
  let fees = 0n;
  for (let s = 0; s < seconds; s++) {
    const t = (START_NS + BigInt(s) * 1_000_000_000n).toString();
    btc += BigInt(Math.round((rnd.next() - 0.5) * 3000)) + (s % 7200 < 3600 ? 2n : -2n);
    eth += BigInt(Math.round((rnd.next() - 0.5) * 200));
    if (rnd.chance(0.05)) {
      const side = posBtc > 5n || (posBtc > -5n && rnd.chance(0.5)) ? 'S' : 'B';
      const maker = rnd.chance(0.7);
      const qty = BigInt(rnd.int(1, 3));
      const price = side === 'B' ? btc - (maker ? 50n : -50n) : btc + (maker ? 50n : -50n);
      posBtc += side === 'B' ? qty : -qty;
      cashCents += (side === 'B' ? -qty : qty) * price;
      const fee = maker ? 0n : (qty * price * 2n) / 10_000n;
      cashCents -= fee;
      fees += fee;
      fills.push({ tNs: t, symbol: 'BTCUSD-PERP', side, price: cents(price), qty: qty.toString(), liquidity: maker ? 'maker' : 'taker' });
    }
    if (rnd.chance(0.003)) {
      const side = posEth > 0n ? 'S' : 'B';
      posEth += side === 'B' ? 4n : -4n;
      cashCents += (side === 'B' ? -4n : 4n) * eth;
      fills.push({ tNs: t, symbol: 'ETHUSD-PERP', side, price: cents(eth), qty: '4', liquidity: 'taker' });
    }
    btcPrice.push({ tNs: t, price: cents(btc) });
    ethPrice.push({ tNs: t, price: cents(eth) });
    btcPos.push({ tNs: t, qty: posBtc.toString() });
    ethPos.push({ tNs: t, qty: posEth.toString() });
    equity.push({ tNs: t, equity: cents(cashCents + posBtc * btc + posEth * eth) });
  }
  const last = equity[equity.length - 1]?.equity ?? '100000';
  const net = BigInt(Math.round(Number(last) * 100)) - 10_000_000n;
  const unrealized = 12_345n;
  return {
    title: 'market-maker on default',
    strategy: 'market-maker',
    params: { spreadTicks: 10, size: '0.5', skew: { perContract: 0.2 } },
    scenario: 'default',
    seed: 42,
    stateHash: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    startTime: START_NS.toString(),
    endTime: (START_NS + BigInt(seconds) * 1_000_000_000n).toString(),
    currency: 'USD',
    metrics: [
      { key: 'net_pnl', label: 'Net PnL', value: cents(net), unit: 'USD' },
      { key: 'return', label: 'Return on starting equity', value: '1.23', unit: '%', headline: true },
      { key: 'sharpe', label: 'Sharpe ratio (annualized)', value: '1.87', headline: true },
      { key: 'max_drawdown', label: 'Max drawdown', value: '-812.40', unit: 'USD', headline: true },
      { key: 'fills', label: 'Fills', value: String(fills.length) },
      { key: 'maker_share', label: 'Maker share of volume', value: '70.1', unit: '%' },
    ],
    pnl: {
      realized: cents(net - unrealized + fees + 5_000n),
      fees: cents(-fees),
      funding: cents(-5_000n),
      unrealized: cents(unrealized),
      net: cents(net),
    },
    series: {
      equity,
      positions: [
        { symbol: 'BTCUSD-PERP', points: btcPos },
        { symbol: 'ETHUSD-PERP', points: ethPos },
      ],
      prices: [
        { symbol: 'BTCUSD-PERP', label: 'mark price', points: btcPrice },
        { symbol: 'ETHUSD-PERP', label: 'mark price', points: ethPrice },
      ],
      fills,
    },
  };
}

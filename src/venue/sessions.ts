import type { InstrumentState } from '../core/types.ts';
import { parseTimestamp } from '../core/time.ts';
import type { TradingHoursConfig } from './instrument.ts';
import type { Market } from './market.ts';
import type { OrderFlow } from './order-flow.ts';
import { F_MARKET, F_SEQ } from './order-store.ts';
import type { VenueState } from './venue-state.ts';
import { liveSlots } from './order-scans.ts';

const DAY_SEC = 86_400;

/**
 * Instrument states over time: fixed schedules, daily trading hours and admin changes.
 * Orders are accepted only in OPEN; a close by trading hours ends resting orders with Done
 * for Day (unless the instrument keeps them); a delisting cancels them (`EXCHANGE_OPTION`).
 */
export class Sessions {
  constructor(
    private readonly s: VenueState,
    private readonly flow: OrderFlow,
  ) {}

  /** Puts every market in its state for now and schedules its future transitions. */
  start(): void {
    for (const market of this.s.markets) {
      const hours = market.instrument.tradingHours;
      if (hours !== undefined) {
        market.state = isWithinHours(hours, this.s.clock.nowSec) ? 'OPEN' : 'CLOSED';
        this.scheduleNextHoursTransition(market, hours);
      }
      for (const step of market.instrument.schedule) {
        const atNs = parseTimestamp(step.at);
        if (atNs === undefined) throw new RangeError(`${market.symbol}: schedule time ${JSON.stringify(step.at)} is not a date-time`);
        if (atNs < this.s.clock.nowNs) continue; // already past at the start: ignore
        this.s.clock.scheduleAt(atNs, () => this.s.exclusive(() => this.setState(market, step.state)));
      }
    }
  }

  /** Changes a market's state, with what the new state implies for resting orders. */
  setState(market: Market, state: InstrumentState, byTradingHours = false): void {
    if (market.state === state) return;
    this.s.log.touchMarket(market);
    market.state = state;
    if (state === 'DELISTED') {
      for (const slot of this.restingIn(market)) this.flow.cancelResting(slot, 'EXCHANGE_OPTION', 'instrument delisted');
    } else if (state === 'CLOSED' && byTradingHours && market.instrument.tradingHours?.expireOrdersAtClose) {
      for (const slot of this.restingIn(market)) this.flow.doneForDay(slot);
      market.refreshMark(this.s.clock.nowSec, this.s.clock.nowNanos);
      this.s.bookChanged(market);
    }
    this.s.announce('instrumentStateChanged', market);
  }

  /** Slots of the orders resting on `market`, in the order they rested (= engine id order). */
  private restingIn(market: Market): number[] {
    const o = this.s.orders;
    return liveSlots(o).filter((slot) => o.field(slot, F_MARKET) === market.index).sort((a, b) => o.field(a, F_SEQ) - o.field(b, F_SEQ));
  }

  private scheduleNextHoursTransition(market: Market, hours: Required<TradingHoursConfig>): void {
    const next = nextHoursTransition(hours, this.s.clock.nowSec);
    if (next === undefined) return;
    this.s.clock.scheduleAt(BigInt(next.atSec) * 1_000_000_000n, () => {
      if (market.state === 'DELISTED') return; // delisting is final: trading hours no longer apply
      this.s.exclusive(() => this.setState(market, next.state, true));
      this.scheduleNextHoursTransition(market, hours);
    });
  }
}

/** Seconds after midnight of "HH:MM". */
function secondsOfDay(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 3600 + Number(hhmm.slice(3, 5)) * 60;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of the UTC day starting at `daySec`. */
function isoWeekday(daySec: number): number {
  const d = (Math.floor(daySec / DAY_SEC) + 4) % 7; // 1970-01-01 was a Thursday (4)
  return d === 0 ? 7 : d;
}

/** True when `sec` lies within a trading session. */
export function isWithinHours(hours: Required<TradingHoursConfig>, sec: number): boolean {
  const day = Math.floor(sec / DAY_SEC) * DAY_SEC;
  if (!hours.weekdays.includes(isoWeekday(day))) return false;
  const t = sec - day;
  return t >= secondsOfDay(hours.open) && t < secondsOfDay(hours.close);
}

/** The next open or close strictly after `sec`, or undefined when no weekday trades. */
export function nextHoursTransition(hours: Required<TradingHoursConfig>, sec: number): { atSec: number; state: InstrumentState } | undefined {
  const today = Math.floor(sec / DAY_SEC) * DAY_SEC;
  for (let day = today; day <= today + 8 * DAY_SEC; day += DAY_SEC) {
    if (!hours.weekdays.includes(isoWeekday(day))) continue;
    const open = day + secondsOfDay(hours.open);
    const close = day + secondsOfDay(hours.close);
    if (sec < open) return { atSec: open, state: 'OPEN' };
    if (sec < close) return { atSec: close, state: 'CLOSED' };
  }
  return undefined;
}

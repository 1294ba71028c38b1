#!/usr/bin/env python3
"""A small market maker on perpsim (or any exchange speaking its interface).

It quotes one post-only bid and one post-only ask ``half_spread_ticks`` around a fair price,
skewed ``skew_ticks_per_lot`` against its inventory and never past ``max_inventory`` lots on
either side. Fair price: the mid of the LEVEL_2 book with its own quotes taken out, or, when
nobody else is quoting, the latest mark price (REST settlement history), or ``--fair``.
Quotes stay one tick behind the others' touch (post-only would be rejected through it). It
requotes when the book or one of its orders changes, at most every ``min_requote_s``, and
cancels everything on exit.

    python3 examples/market_maker.py --url http://127.0.0.1:8080 --username alice \\
        --password alice-password --symbol BTCUSD-PERP --duration 60
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from perpsim_client import Client, OrderFeed, PerpsimError  # noqa: E402


class MarketMaker:
    def __init__(self, client: Client, symbol: str, *, half_spread_ticks: int = 2, size: int = 1, max_inventory: int = 5,
                 skew_ticks_per_lot: int = 1, fair: Optional[Decimal] = None, min_requote_s: float = 0.1,
                 log: Callable[[str], None] = print) -> None:
        self.client = client
        self.symbol = symbol
        self.half_spread_ticks = half_spread_ticks
        self.size = size
        self.max_inventory = max_inventory
        self.skew_ticks_per_lot = skew_ticks_per_lot
        self.fair = fair
        self.min_requote_s = min_requote_s
        self.log = log
        #: Net position in lots, from this run's fills.
        self.position = 0
        self.fills: list[OrderFeed] = []
        #: Every price quoted, in order: (side, price).
        self.quotes: list[tuple[str, Decimal]] = []
        self.ready = asyncio.Event()  # set once both sides are quoted the first time
        self._wake = asyncio.Event()
        self._seen: set[str] = set()  # order ids whose first feed (n or j) arrived
        self._mark: Optional[Decimal] = None
        self._mark_asked = 0.0

    async def run(self, duration_s: Optional[float] = None, max_fills: Optional[int] = None) -> None:
        self.instrument = self.client.rest.instrument(self.symbol)
        self.orders = await self.client.order_socket()
        self.md = await self.client.market_data()
        try:
            self.orders.on_feed(self._on_feed)
            self.md.on_book(lambda book, update: self._wake.set())
            self.book = await self.md.subscribe(self.symbol, "LEVEL_2")
            deadline = None if duration_s is None else time.monotonic() + duration_s
            while (deadline is None or time.monotonic() < deadline) and (max_fills is None or len(self.fills) < max_fills):
                self._wake.clear()
                await self._requote()
                await asyncio.sleep(self.min_requote_s)  # at most one requote per interval, however busy the book
                try:
                    await asyncio.wait_for(self._wake.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass
        finally:
            for order_id in list(self.orders.orders):
                await self.orders.cancel_order(order_id)
            await self.orders.close()
            await self.md.close()

    def _on_feed(self, feed: OrderFeed) -> None:
        if feed.order_id is not None:
            self._seen.add(feed.order_id)
        if feed.fill is not None and feed.fill.symbol == self.symbol:
            self.position += feed.fill.quantity if feed.fill.side == "B" else -feed.fill.quantity
            self.fills.append(feed)
            self.log(f"fill {feed.fill.side} {feed.fill.quantity} @ {feed.fill.price}  position {self.position}")
        elif feed.type == "j":
            self.log(f"rejected {feed.order_id}: {feed.reason} {feed.text or ''}".rstrip())
        self._wake.set()

    def _others_touch(self) -> tuple[Optional[int], Optional[int]]:
        """Best bid and ask in ticks of everyone else: the LEVEL_2 book less our own quotes."""
        own = {(o.side, o.price): o.remaining_quantity for o in self.orders.orders.values() if o.symbol == self.symbol}
        bids = [lv.price for lv in self.book.bids if lv.quantity > own.get(("B", lv.price), 0)]
        asks = [lv.price for lv in self.book.asks if lv.quantity > own.get(("S", lv.price), 0)]
        return (self.instrument.to_ticks(bids[0]) if bids else None, self.instrument.to_ticks(asks[0]) if asks else None)

    def _fair_ticks(self, bid: Optional[int], ask: Optional[int]) -> Optional[int]:
        """Mid of the others' book, else the latest mark, else ``--fair``."""
        if bid is not None and ask is not None:
            return (bid + ask) // 2
        mark = self._latest_mark()
        if mark is not None:
            return self.instrument.to_ticks(mark)
        return None if self.fair is None else self.instrument.to_ticks(self.fair)

    def _latest_mark(self) -> Optional[Decimal]:
        """The latest recorded mark of the last hour of exchange time, asked at most every 5 wall seconds."""
        if time.monotonic() - self._mark_asked < 5 and self._mark is not None:
            return self._mark
        now = self.md.exchange_time_ns
        marks = self.client.rest.mtm_prices(self.symbol, now - 3_600 * 10**9, now) if now else []
        self._mark_asked = time.monotonic()
        self._mark = marks[-1].mtm_price if marks else None
        return self._mark

    async def _requote(self) -> None:
        other_bid, other_ask = self._others_touch()
        fair = self._fair_ticks(other_bid, other_ask)
        if fair is None:
            return
        skew = self.position * self.skew_ticks_per_lot
        bid, ask = fair - self.half_spread_ticks - skew, fair + self.half_spread_ticks - skew
        # Post-only: a quote through the others' touch would be rejected; stay one tick behind it.
        if other_ask is not None:
            bid = min(bid, other_ask - 1)
        if other_bid is not None:
            ask = max(ask, other_bid + 1)
        wanted = {
            "B": bid if self.position + self.size <= self.max_inventory else None,
            "S": ask if self.position - self.size >= -self.max_inventory else None,
        }
        for side, ticks in wanted.items():
            live = [o for o in self.orders.orders.values() if o.symbol == self.symbol and o.side == side]
            price = None if ticks is None else self.instrument.to_price(ticks)
            for order in live:
                if order.price != price:
                    await self.orders.cancel_order(order.order_id)
                    await self.orders.wait_until(lambda: order.order_id not in self.orders.orders)
            if price is not None and not any(o.price == price for o in live):
                order_id = await self.orders.place_order(self.symbol, side, self.size, price, "GTC", post_only=True)
                await self.orders.wait_until(lambda: order_id in self._seen)
                self.quotes.append((side, price))
        if len({o.side for o in self.orders.orders.values() if o.symbol == self.symbol}) == 2:
            self.ready.set()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="{base_url} of the exchange")
    parser.add_argument("--username", default="alice")
    parser.add_argument("--password", default="alice-password")
    parser.add_argument("--symbol", default="BTCUSD-PERP")
    parser.add_argument("--half-spread-ticks", type=int, default=2)
    parser.add_argument("--size", type=int, default=1, help="lots per quote")
    parser.add_argument("--max-inventory", type=int, default=5, help="lots, either side")
    parser.add_argument("--fair", type=Decimal, help="fair price to use while nobody else quotes and no mark is recorded")
    parser.add_argument("--duration", type=float, default=60, help="wall seconds to run")
    parser.add_argument("--max-fills", type=int, help="stop after this many fills")
    args = parser.parse_args()
    try:
        client = Client(args.url).login(args.username, args.password)
        maker = MarketMaker(client, args.symbol, half_spread_ticks=args.half_spread_ticks, size=args.size,
                            max_inventory=args.max_inventory, fair=args.fair)
        print(f"quoting {args.symbol} as {args.username} on {args.url} for {args.duration:g} s (Ctrl-C stops)")
        await maker.run(duration_s=args.duration, max_fills=args.max_fills)
        snapshot = client.rest.risk_snapshot()
    except PerpsimError as e:
        print(f"market_maker: {e}", file=sys.stderr)
        return 1
    print(f"{len(maker.fills)} fills, {len(maker.quotes)} quotes, position {maker.position}")
    if snapshot is not None:
        print(f"equity {snapshot.total_equity}, realized {snapshot.total_realized_pnl}, unrealized {snapshot.total_unrealized_pnl}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except KeyboardInterrupt:
        sys.exit(130)

"""The examples: the market maker trading on the server, and the Arrow reader's edges."""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
import unittest
from decimal import Decimal
from pathlib import Path

from perpsim_client import next_feed

from .base import ServerTest
from .server import BTC

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class MarketMakerExample(ServerTest):
    async def test_it_quotes_around_the_mark_gets_filled_skews_and_cleans_up(self) -> None:
        self.srv.admin.advance(60)  # a mark is recorded every minute of sim time: the fair price here
        maker_client = self.user("mm")
        taker, _ = await self.sockets(self.user("tk"))
        taker_feeds = taker.feed_queue()
        logged: list[str] = []
        maker = load("market_maker").MarketMaker(maker_client, BTC, half_spread_ticks=2, size=1, max_inventory=3, log=logged.append)
        run = asyncio.create_task(maker.run(duration_s=20, max_fills=2))
        await asyncio.wait_for(maker.ready.wait(), 10)
        mark = maker_client.rest.mtm_prices(BTC, 0, self.srv.admin.now_ns())[-1].mtm_price
        quotes = {o.side: o.price for o in maker.orders.orders.values()}
        self.assertEqual(quotes, {"B": mark - 1, "S": mark + 1})  # 2 ticks of 0.5 each side

        await taker.place_order(BTC, "S", 1, quotes["B"], "IOC")  # hit the bid
        self.assertEqual((await next_feed(taker_feeds, lambda f: f.type == "f")).fill.price, quotes["B"])  # type: ignore[union-attr]
        def requoted() -> bool:
            live = {o.side: o.price for o in maker.orders.orders.values()}
            return maker.position == 1 and len(live) == 2 and live["B"] < quotes["B"] and live["S"] < quotes["S"]

        await maker.orders.wait_until(requoted)
        skewed = {o.side: o.price for o in maker.orders.orders.values()}
        self.assertEqual(skewed, {"B": mark - Decimal("1.5"), "S": mark + Decimal("0.5")})  # one tick against a long lot

        await taker.place_order(BTC, "B", 1, skewed["S"], "IOC")  # lift the ask: the second fill ends the run
        await asyncio.wait_for(run, 10)
        self.assertEqual((len(maker.fills), maker.position), (2, 0))
        self.assertEqual(maker_client.rest.open_orders(), [])  # canceled on the way out
        self.assertEqual(len([line for line in logged if line.startswith("fill ")]), 2)
        snapshot = maker_client.rest.risk_snapshot()
        assert snapshot is not None
        self.assertEqual(snapshot.total_realized_pnl, skewed["S"] - quotes["B"])  # bought at the bid, sold at the ask


class ReadArrowExample(unittest.TestCase):
    def run_example(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(EXAMPLES / "read_arrow.py"), *args], capture_output=True, text=True, timeout=60)

    def test_a_missing_argument_is_a_usage_line_and_exit_2(self) -> None:
        done = self.run_example()
        self.assertEqual((done.returncode, done.stderr.strip()), (2, "usage: read_arrow.py FILE.arrow"))

    def test_without_pyarrow_it_says_what_to_install_or_with_it_names_a_missing_file(self) -> None:
        done = self.run_example("/nonexistent/events.arrow")
        if importlib.util.find_spec("pyarrow") is None or importlib.util.find_spec("pandas") is None:
            self.assertEqual((done.returncode, done.stderr.strip()), (2, "read_arrow: needs pyarrow and pandas (pip install pyarrow pandas)"))
        else:
            self.assertEqual(done.returncode, 1)
            self.assertTrue(done.stderr.startswith("read_arrow: /nonexistent/events.arrow: "))
        self.assertNotIn("Traceback", done.stderr)


if __name__ == "__main__":
    unittest.main()

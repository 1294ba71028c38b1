"""Parsing without a server: feeds, market data, the local book, exact times."""

from __future__ import annotations

import unittest
from decimal import Decimal

from perpsim_client import Book, BookUpdate, Heartbeat, OrderFeed, TickerStats, format_time_ns, parse_time_ns
from perpsim_client.feeds import parse_market_data_message, parse_order_message

ORDER = {"oid": "O-1", "u": "alice", "s": "BTCUSD-PERP", "p": "50000.5", "q": 3, "xq": 1, "rq": 2, "o": "PARTIALLY_FILLED",
         "d": "B", "tif": "GTC", "liq": False, "ts": 1767225600, "tn": 5}


class Parsing(unittest.TestCase):
    def test_a_partial_fill_feed_becomes_an_order_feed_with_exact_values(self) -> None:
        feed = parse_order_message({"t": "p", "ts": 1767225601, "tn": 7, "eid": "9", "o": ORDER,
                                    "xs": {"tid": "4", "s": "BTCUSD-PERP", "q": 1, "p": "50000.5", "d": "B", "agg": True}})
        assert isinstance(feed, OrderFeed) and feed.order is not None and feed.fill is not None
        self.assertEqual((feed.kind, feed.ts_ns, feed.execution_id, feed.order_id), ("partial_fill", 1767225601_000000007, "9", "O-1"))
        self.assertEqual((feed.order.price, feed.order.insert_ns, feed.order.is_open), (Decimal("50000.5"), 1767225600_000000005, True))
        self.assertEqual((feed.fill.trade_id, feed.fill.price, feed.fill.aggressor), ("4", Decimal("50000.5"), True))

    def test_a_cancel_reject_has_no_order_but_names_the_order_id(self) -> None:
        feed = parse_order_message({"t": "e", "ts": 1, "tn": 0, "oid": "O-9", "r": "UNKNOWN_ORDER", "txt": "no such order"})
        assert isinstance(feed, OrderFeed)
        self.assertEqual((feed.order, feed.order_id, feed.reason, feed.text), (None, "O-9", "UNKNOWN_ORDER", "no such order"))

    def test_heartbeats_stats_and_books_parse_and_unknown_types_are_skipped(self) -> None:
        self.assertEqual(parse_order_message({"t": "h", "ts": 2, "tn": 1}), Heartbeat(2_000_000_001))
        self.assertIsNone(parse_order_message({"t": "?", "ts": 2, "tn": 1}))
        stats = parse_market_data_message({"t": "s", "ts": 1, "tn": 0, "s": "X", "p": "1.5", "q": 2, "o": "1", "l": "0.5", "h": "2", "v": 9})
        self.assertEqual(stats, TickerStats("X", 1_000_000_000, Decimal("1.5"), 2, Decimal(1), Decimal("0.5"), Decimal(2), 9))
        book = parse_market_data_message({"t": "3", "ts": 1, "tn": 0, "s": "X", "b": [{"p": "1", "q": 3, "o": [1, 2]}], "a": []})
        assert isinstance(book, BookUpdate)
        self.assertEqual((book.level, book.bids[0].orders, book.asks), (3, (1, 2), ()))


class LocalBook(unittest.TestCase):
    def update(self, ts: int, bid: str, ask: str, level: int = 2, symbol: str = "X") -> BookUpdate:
        raw = {"t": str(level), "ts": ts, "tn": 0, "s": symbol, "b": [{"p": bid, "q": 1}], "a": [{"p": ask, "q": 2}]}
        parsed = parse_market_data_message(raw)
        assert isinstance(parsed, BookUpdate)
        return parsed

    def test_each_update_replaces_the_book_and_an_older_one_is_ignored(self) -> None:
        book = Book("X", "LEVEL_2")
        self.assertTrue(book.apply(self.update(2, "10", "11")))
        self.assertEqual((book.mid, book.spread, book.updates), (Decimal("10.5"), Decimal(1), 1))
        self.assertFalse(book.apply(self.update(1, "9", "12")))
        self.assertEqual(book.best_bid.price if book.best_bid else None, Decimal(10))
        self.assertTrue(book.apply(self.update(2, "10.5", "11")))  # same instant: the later message wins

    def test_an_update_of_another_symbol_or_level_is_refused(self) -> None:
        book = Book("X", "LEVEL_2")
        with self.assertRaises(ValueError):
            book.apply(self.update(1, "1", "2", level=1))
        with self.assertRaises(ValueError):
            book.apply(self.update(1, "1", "2", symbol="Y"))
        with self.assertRaises(ValueError):
            Book("X", "LEVEL_9")


class Times(unittest.TestCase):
    def test_rfc3339_round_trips_to_the_nanosecond(self) -> None:
        for ns in (0, 1, 1767225600_123456789, 1767225599_999999999):
            self.assertEqual(parse_time_ns(format_time_ns(ns)), ns)
        self.assertEqual(parse_time_ns("2026-01-01T01:00:00.5+01:00"), 1767225600_500000000)
        with self.assertRaises(ValueError):
            parse_time_ns("2026-01-01")


if __name__ == "__main__":
    unittest.main()

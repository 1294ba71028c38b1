"""The market-data websocket through MarketDataSocket: books at each level kept current,
stats, errors, unsubscribe and resubscription after a reconnect."""

from __future__ import annotations

import asyncio
import unittest
from decimal import Decimal

from perpsim_client import Book, BookUpdate, SocketError
from perpsim_client.feeds import BookLevel

from .base import ServerTest
from .server import BTC, ETH


def levels(side: tuple[BookLevel, ...]) -> list[tuple[Decimal, int]]:
    return [(level.price, level.quantity) for level in side]


class Books(ServerTest):
    async def test_level_1_2_and_3_books_follow_the_orders(self) -> None:
        client = self.user()
        orders, md = await self.sockets(client)
        _, md2 = await self.sockets(client)
        _, md3 = await self.sockets(client)
        l1, l2, l3 = await md.subscribe(BTC, "LEVEL_1"), await md2.subscribe(BTC, "LEVEL_2"), await md3.subscribe(BTC, "LEVEL_3")
        for price, qty in [("49900", 1), ("49900", 2), ("49800", 4)]:
            await orders.place_order(BTC, "B", qty, price)
        await orders.place_order(BTC, "S", 5, "50100")
        await md3.wait_for_book(BTC, lambda b: len(b.bids) == 2 and len(b.asks) == 1)
        await md2.wait_for_book(BTC, lambda b: len(b.bids) == 2 and len(b.asks) == 1)
        await md.wait_for_book(BTC, lambda b: b.best_bid is not None and b.best_bid.quantity == 3 and b.best_ask is not None)

        self.assertEqual(levels(l1.bids), [(Decimal("49900"), 3)])
        self.assertEqual(levels(l2.bids), [(Decimal("49900"), 3), (Decimal("49800"), 4)])
        self.assertEqual(l3.bids[0].orders, (1, 2))  # per-order quantities in queue order
        self.assertEqual(l3.bids[1].orders, (4,))
        self.assertIsNone(l2.bids[0].orders)
        self.assertEqual((l2.mid, l2.spread), (Decimal("50000"), Decimal("200")))
        self.assertEqual(l2.quantity_at("S", Decimal("50100")), 5)

        client.rest.cancel_all()
        await md2.wait_for_book(BTC, lambda b: not b.bids and not b.asks)
        self.assertIsNone(l2.mid)

    async def test_subscribe_sends_stats_and_a_trade_updates_them(self) -> None:
        maker, md = await self.sockets(self.user("mk"))
        taker, _ = await self.sockets(self.user("tk"))
        seen: list[tuple[Book, BookUpdate]] = []
        md.on_book(lambda book, update: seen.append((book, update)))
        book = await md.subscribe(ETH, "LEVEL_2")
        await md.wait_until(lambda: ETH in md.stats and book.updates == 1)
        volume = md.stats[ETH].volume
        await maker.place_order(ETH, "S", 4, "3001.25")
        await taker.place_order(ETH, "B", 3, "3001.25", "IOC")
        await md.wait_until(lambda: md.stats[ETH].volume == volume + 3)
        stats = md.stats[ETH]
        self.assertEqual((stats.last_price, stats.last_quantity), (Decimal("3001.25"), 3))
        await md.wait_for_book(ETH, lambda b: levels(b.asks) == [(Decimal("3001.25"), 1)])
        self.assertTrue(all(b is book for b, _ in seen))
        self.assertEqual([u.level for _, u in seen], [2] * len(seen))


class Depth(ServerTest):
    async def test_a_depth_limited_book_holds_only_the_first_levels_a_side(self) -> None:
        orders, md = await self.sockets(self.user())
        _, full_md = await self.sockets(self.user())
        top2 = await md.subscribe(BTC, "LEVEL_2", depth=2)
        full = await full_md.subscribe(BTC, "LEVEL_2")
        for price in ["49900", "49800", "49700"]:
            await orders.place_order(BTC, "B", 1, price)
        await orders.place_order(BTC, "S", 1, "50100")  # its update comes after every bid's
        await full_md.wait_for_book(BTC, lambda b: len(b.bids) == 3 and b.best_ask is not None)
        await md.wait_for_book(BTC, lambda b: b.best_ask is not None)
        self.assertEqual(top2.depth, 2)
        self.assertEqual(levels(top2.bids), [(Decimal("49900"), 1), (Decimal("49800"), 1)])
        self.assertEqual(len(full.bids), 3)

    async def test_depth_survives_a_reconnect(self) -> None:
        orders, md = await self.sockets(self.user())
        book = await md.subscribe(BTC, "LEVEL_2", depth=1)
        await md.wait_until(lambda: book.updates == 1)
        reconnected = asyncio.Event()
        md.on_reconnect(reconnected.set)
        md._ws.transport.abort()
        await orders.place_order(BTC, "S", 2, "50200")
        await orders.place_order(BTC, "S", 3, "50300")
        await asyncio.wait_for(reconnected.wait(), 10)
        await md.wait_for_book(BTC, lambda b: b.best_ask is not None)
        self.assertEqual(levels(book.asks), [(Decimal("50200"), 2)])

    async def test_a_bad_depth_is_a_400_and_no_book_is_kept(self) -> None:
        _, md = await self.sockets(self.user())
        for bad in [0, 100_001, 2.5]:
            with self.assertRaises(SocketError) as caught:
                await md.subscribe(ETH, "LEVEL_2", depth=bad)  # type: ignore[arg-type]
            self.assertEqual(caught.exception.code, 400)
            self.assertIn("depth must be an integer from 1 to 100000", caught.exception.message)
            self.assertNotIn(ETH, md.books)


class Errors(ServerTest):
    async def test_subscription_errors_are_envelopes_with_codes(self) -> None:
        _, md = await self.sockets(self.user())
        with self.assertRaises(SocketError) as caught:
            await md.subscribe("NOPE-PERP", "LEVEL_1")
        self.assertEqual((caught.exception.code, caught.exception.message), (404, "unknown symbol NOPE-PERP"))
        self.assertNotIn("NOPE-PERP", md.books)
        book = await md.subscribe(BTC, "LEVEL_1")
        with self.assertRaises(SocketError) as caught:
            await md.subscribe(BTC, "LEVEL_1")
        self.assertEqual(caught.exception.code, 409)
        self.assertIs(md.books[BTC], book)
        with self.assertRaises(SocketError) as caught:
            await md.request("subscribe", symbol=ETH)
        self.assertEqual((caught.exception.code, caught.exception.message), (400, "level is required"))
        with self.assertRaises(SocketError) as caught:
            await md.unsubscribe(ETH)
        self.assertEqual(caught.exception.code, 404)
        with self.assertRaises(ValueError):
            await md.subscribe(ETH, "LEVEL_4")

    async def test_unsubscribe_stops_the_updates(self) -> None:
        orders, md = await self.sockets(self.user())
        book = await md.subscribe(BTC, "LEVEL_2")
        await md.wait_until(lambda: book.updates == 1)
        await md.unsubscribe(BTC)
        self.assertNotIn(BTC, md.books)
        await orders.place_order(BTC, "B", 1, "49950")
        _, watcher = await self.sockets(self.user())
        check = await watcher.subscribe(BTC, "LEVEL_2")
        await watcher.wait_for_book(BTC, lambda b: b.best_bid is not None)
        self.assertEqual(book.updates, 1)  # the unsubscribed book saw nothing more
        self.assertEqual(levels(check.bids), [(Decimal("49950"), 1)])


class Reconnect(ServerTest):
    async def test_after_a_drop_it_logs_in_subscribes_again_and_keeps_the_same_book(self) -> None:
        orders, md = await self.sockets(self.user())
        book = await md.subscribe(BTC, "LEVEL_2")
        await md.wait_until(lambda: book.updates == 1)
        reconnected = asyncio.Event()
        md.on_reconnect(reconnected.set)
        md._ws.transport.abort()
        await orders.place_order(BTC, "S", 2, "50200")  # while the socket is down
        await asyncio.wait_for(reconnected.wait(), 10)
        await md.wait_for_book(BTC, lambda b: b.best_ask is not None)
        self.assertIs(md.books[BTC], book)
        self.assertEqual(levels(book.asks), [(Decimal("50200"), 2)])
        self.assertEqual(md.reconnects, 1)


if __name__ == "__main__":
    unittest.main()

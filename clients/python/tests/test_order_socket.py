"""The order websocket through OrderSocket: replies by rid, typed feeds, errors, reconnect."""

from __future__ import annotations

import asyncio
import unittest
from decimal import Decimal

from perpsim_client import OrderSocket, SocketError, next_feed

from .base import ServerTest
from .server import BTC


class OrderFlow(ServerTest):
    async def test_place_then_cancel_gives_new_then_canceled_feeds_as_dataclasses(self) -> None:
        orders, _ = await self.sockets(self.user())
        feeds = orders.feed_queue()
        order_id = await orders.place_order(BTC, "B", 2, Decimal("49500"), "GTC", post_only=True)
        new = await next_feed(feeds)
        self.assertEqual((new.type, new.kind, new.order_id), ("n", "new", order_id))
        assert new.order is not None
        self.assertEqual((new.order.price, new.order.quantity, new.order.remaining_quantity, new.order.state), (Decimal("49500"), 2, 2, "NEW"))
        self.assertEqual(new.order.username, orders.username)
        self.assertIn(order_id, orders.orders)
        self.assertTrue(await orders.cancel_order(order_id))
        canceled = await next_feed(feeds)
        self.assertEqual((canceled.type, canceled.cancel_reason, canceled.order_id), ("c", "USER_REQUESTED", order_id))
        self.assertNotIn(order_id, orders.orders)
        self.assertGreater(orders.exchange_time_ns, 0)

    async def test_a_maker_sees_partial_fill_then_fill_and_an_ioc_remainder_expires(self) -> None:
        maker, _ = await self.sockets(self.user("mk"))
        taker, _ = await self.sockets(self.user("tk"))
        maker_feeds, taker_feeds = maker.feed_queue(), taker.feed_queue()
        resting = await maker.place_order(BTC, "S", 3, "50005")
        await taker.place_order(BTC, "B", 1, "50005", "IOC")
        partial = await next_feed(maker_feeds, lambda f: f.type == "p")
        assert partial.fill is not None and partial.order is not None
        self.assertEqual((partial.fill.quantity, partial.fill.price, partial.fill.side, partial.fill.aggressor), (1, Decimal("50005"), "S", False))
        self.assertEqual((partial.order.order_id, partial.order.remaining_quantity), (resting, 2))
        taker_fill = await next_feed(taker_feeds, lambda f: f.type == "f")
        assert taker_fill.fill is not None
        self.assertTrue(taker_fill.fill.aggressor)
        self.assertEqual(taker_fill.fill.trade_id, partial.fill.trade_id)

        await taker.place_order(BTC, "B", 5, "50005", "IOC")
        fill = await next_feed(maker_feeds, lambda f: f.type == "f")
        assert fill.order is not None
        self.assertEqual((fill.order.state, fill.order.remaining_quantity), ("FILLED", 0))
        expired = await next_feed(taker_feeds, lambda f: f.type == "x")
        assert expired.order is not None
        self.assertEqual((expired.order.filled_quantity, expired.order.remaining_quantity), (2, 0))
        self.assertEqual(maker.orders, {})

    async def test_replies_are_matched_to_their_requests_by_rid(self) -> None:
        orders, _ = await self.sockets(self.user())
        prices = [Decimal(49_000) + i for i in range(20)]
        ids = await asyncio.gather(*(orders.place_order(BTC, "B", 1, p) for p in prices))
        self.assertEqual(len(set(ids)), 20)
        await orders.wait_until(lambda: all(i in orders.orders for i in ids))
        self.assertEqual([orders.orders[i].price for i in ids], prices)
        listed = await orders.open_orders()
        self.assertEqual({o.order_id for o in listed}, set(ids))


class RejectsAndErrors(ServerTest):
    async def test_business_rejects_are_feeds_with_their_reason(self) -> None:
        orders, _ = await self.sockets(self.user())
        feeds = orders.feed_queue()
        off_grid = await orders.place_order(BTC, "B", 1, "49000.25")
        reject = await next_feed(feeds)
        self.assertEqual((reject.type, reject.order_id, reject.reason), ("j", off_grid, "INVALID_PRICE_INCREMENT"))
        await orders.place_order(BTC, "S", 1, "50100")
        await next_feed(feeds, lambda f: f.type == "n")
        crossing = await orders.place_order(BTC, "B", 1, "50100", post_only=True)
        reject = await next_feed(feeds)
        self.assertEqual((reject.order_id, reject.reason, reject.text), (crossing, "UNKNOWN", "post-only order would cross the book"))
        far = await orders.place_order(BTC, "B", 1, "10000")
        reject = await next_feed(feeds)
        self.assertEqual((reject.order_id, reject.reason), (far, "PRICE_OUT_OF_BOUNDS"))

    async def test_a_cancel_of_an_unknown_order_is_acknowledged_then_rejected_by_feed(self) -> None:
        orders, _ = await self.sockets(self.user())
        feeds = orders.feed_queue()
        self.assertTrue(await orders.cancel_order("O-NOSUCHORDER"))
        reject = await next_feed(feeds)
        self.assertEqual((reject.type, reject.kind, reject.order_id, reject.reason, reject.order), ("e", "cancel_reject", "O-NOSUCHORDER", "UNKNOWN_ORDER", None))

    async def test_malformed_requests_get_the_error_envelope_with_code_and_message(self) -> None:
        orders, _ = await self.sockets(self.user())
        with self.assertRaises(SocketError) as caught:
            await orders.request("p", d="B", q=1, p="50000", tif="GTC", po=False)
        self.assertEqual((caught.exception.code, caught.exception.message, caught.exception.request), (400, "s is required", "p"))
        with self.assertRaises(SocketError) as caught:
            await orders.request("p", s=BTC, d="B", q=1.5, p="50000", tif="GTC", po=False)
        self.assertEqual(caught.exception.code, 400)
        with self.assertRaises(SocketError) as caught:
            await orders.request("a", u=orders.username, k="x")
        self.assertEqual(caught.exception.code, 409)  # already logged in
        await orders.send_raw("not json")
        await orders.wait_until(lambda: len(orders.unmatched) == 1)
        self.assertEqual(orders.unmatched[0], {"rid": None, "err": {"code": 400, "msg": "a request must be a JSON object"}})

    async def test_a_bad_token_fails_the_connect_with_401(self) -> None:
        client = self.user()
        with self.assertRaises(SocketError) as caught:
            await OrderSocket.connect(self.srv.url, client.username, "not-a-token", reconnect=False)
        self.assertEqual(caught.exception.code, 401)


class ReconnectAndHeartbeat(ServerTest):
    async def test_a_dropped_connection_reconnects_logs_in_again_and_resyncs_open_orders(self) -> None:
        client = self.user()
        orders, _ = await self.sockets(client)
        reconnected = asyncio.Event()
        orders.on_reconnect(reconnected.set)
        kept = await orders.place_order(BTC, "B", 1, "49100")
        await orders.wait_until(lambda: kept in orders.orders)
        orders._ws.transport.abort()  # the network drops: no close handshake
        placed_meanwhile = client.rest.insert_order(BTC, "B", 1, "49200")
        await asyncio.wait_for(reconnected.wait(), 10)
        self.assertEqual(orders.reconnects, 1)
        self.assertEqual(set(orders.orders), {kept, placed_meanwhile})  # from the login reply
        after = await orders.place_order(BTC, "B", 1, "49300")
        await orders.wait_until(lambda: after in orders.orders)

    async def test_heartbeats_arrive_and_carry_exchange_time(self) -> None:
        orders, md = await self.sockets(self.user())
        beats: list[int] = []
        orders.on_heartbeat(beats.append)
        await orders.wait_until(lambda: orders.last_heartbeat_ns is not None, timeout=10)
        await md.wait_until(lambda: md.last_heartbeat_ns is not None, timeout=10)
        now = self.srv.admin.now_ns()
        self.assertEqual(orders.last_heartbeat_ns, now)  # a manual clock: sim time stands still
        self.assertEqual(beats, [now])


if __name__ == "__main__":
    unittest.main()

"""The order websocket ({base_url}/orders): login, place / cancel / open orders with replies
matched by ``rid``, and the user's order feeds as typed ``OrderFeed`` values."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any, Callable

from .feeds import OrderFeed, WsOrder, parse_order_message
from .rest import price_text
from .sockets import RequestSocket, TokenSource, ws_base


class OrderSocket(RequestSocket):
    """One user's order socket. Open it with ``await OrderSocket.connect(base_url, username, token)``.

    ``orders`` holds the user's open orders as the server last described them (from the
    login reply, then every feed; finished orders leave it), so a strategy can read its
    quotes without asking. Feeds reach ``on_feed`` callbacks and every ``feed_queue()``.
    Rejects (``j``) and cancel rejects (``e``) are feeds, never exceptions; a request the
    server refuses outright (bad field, not logged in) raises ``SocketError`` with its code.
    """

    ID_KEY, TYPE_KEY, RESULT_KEY, ERROR_KEY, MESSAGE_KEY = "rid", "t", "res", "err", "msg"

    def __init__(self, url: str, username: str, token: TokenSource, **options: Any) -> None:
        super().__init__(url, **options)
        self.username = username
        self._token = token
        #: Open orders by id (websocket form).
        self.orders: dict[str, WsOrder] = {}
        #: Feeds received so far.
        self.feed_count = 0
        self._queues: list[asyncio.Queue[OrderFeed]] = []
        self._callbacks: list[Callable[[OrderFeed], Any]] = []

    @classmethod
    async def connect(cls, base_url: str, username: str, token: TokenSource, **options: Any) -> OrderSocket:
        """Connects to ``{base_url}/orders`` (http(s) or ws(s) base) and logs in with ``a``."""
        socket = cls(ws_base(base_url) + "/orders", username, token, **options)
        await socket._start()
        return socket

    async def _resume(self, ws: Any) -> None:
        token = self._token() if callable(self._token) else self._token
        result = await self._request_on(ws, "a", {"u": self.username, "k": token})
        # The login reply lists the open orders: after a reconnect this repairs whatever feeds were missed.
        self.orders = {o.order_id: o for o in (WsOrder.from_wire(raw) for raw in result.get("o", []))}

    # ---- requests -----------------------------------------------------------------------

    async def place_order(self, symbol: str, side: str, quantity: int, price: Decimal | str | int, time_in_force: str = "GTC", post_only: bool = False) -> str:
        """``p``: the new order's id. What happens to it comes as feeds (``n`` or ``j`` first)."""
        result = await self.request("p", s=symbol, d=side, q=quantity, p=price_text(price), tif=time_in_force, po=post_only)
        return result["oid"]

    async def cancel_order(self, order_id: str) -> bool:
        """``x``: True when the cancel was received; the outcome is a ``c`` or ``e`` feed."""
        result = await self.request("x", oid=order_id)
        return bool(result["cxl_rx"])

    async def open_orders(self) -> list[WsOrder]:
        """``o``: the open orders, asked of the server (``orders`` is the local view)."""
        result = await self.request("o")
        return [WsOrder.from_wire(raw) for raw in result["o"]]

    async def logout(self) -> str:
        """``z``: logs out (the socket stays open but no longer receives feeds)."""
        self.reconnect = False
        return (await self.request("z"))["lo"]

    # ---- feeds --------------------------------------------------------------------------

    def on_feed(self, callback: Callable[[OrderFeed], Any]) -> None:
        """``callback(feed)`` for every order feed (a coroutine function is scheduled)."""
        self._callbacks.append(callback)

    def feed_queue(self) -> asyncio.Queue[OrderFeed]:
        """A queue receiving every feed from now on (create it before acting, read it after)."""
        queue: asyncio.Queue[OrderFeed] = asyncio.Queue()
        self._queues.append(queue)
        return queue

    def remove_feed_queue(self, queue: asyncio.Queue[OrderFeed]) -> None:
        self._queues.remove(queue)

    def _on_push(self, message: dict[str, Any]) -> None:
        feed = parse_order_message(message)
        if not isinstance(feed, OrderFeed):
            return
        self.feed_count += 1
        if feed.order is not None:
            if feed.order.is_open:
                self.orders[feed.order.order_id] = feed.order
            else:
                self.orders.pop(feed.order.order_id, None)
        for queue in self._queues:
            queue.put_nowait(feed)
        for callback in self._callbacks:
            self._call(callback, feed)


async def next_feed(queue: asyncio.Queue[OrderFeed], predicate: Callable[[OrderFeed], bool] = lambda f: True, timeout: float = 10.0) -> OrderFeed:
    """The next feed in ``queue`` satisfying ``predicate`` (earlier ones are dropped); TimeoutError after ``timeout``."""

    async def take() -> OrderFeed:
        while True:
            feed = await queue.get()
            if predicate(feed):
                return feed

    return await asyncio.wait_for(take(), timeout)

"""The market-data websocket ({ws_base_url}/md/ws): login, subscribe at LEVEL_1/2/3 with the
books kept up to date, ticker stats, heartbeats; on reconnect it logs in and subscribes again."""

from __future__ import annotations

from typing import Any, Callable

from .book import LEVELS, Book
from .errors import SocketError
from .feeds import BookUpdate, TickerStats, parse_market_data_message
from .sockets import RequestSocket, TokenSource, ws_base


class MarketDataSocket(RequestSocket):
    """Open with ``await MarketDataSocket.connect(base_url, username, token)``.

    ``subscribe(symbol, level, depth=None)`` returns the symbol's ``Book``, which every update keeps
    current (the same object across reconnects); ``stats[symbol]`` is the latest
    ``TickerStats``. ``wait_for_book`` waits until a book satisfies a condition.
    """

    ID_KEY, TYPE_KEY, RESULT_KEY, ERROR_KEY, MESSAGE_KEY = "request_id", "type", "result", "error", "message"

    def __init__(self, url: str, username: str, token: TokenSource, **options: Any) -> None:
        super().__init__(url, **options)
        self.username = username
        self._token = token
        self.books: dict[str, Book] = {}
        self.stats: dict[str, TickerStats] = {}
        self._book_callbacks: list[Callable[[Book, BookUpdate], Any]] = []
        self._stats_callbacks: list[Callable[[TickerStats], Any]] = []

    @classmethod
    async def connect(cls, base_url: str, username: str, token: TokenSource, **options: Any) -> MarketDataSocket:
        """Connects to ``{ws_base_url}/md/ws`` (http(s) or ws(s) base) and logs in."""
        socket = cls(ws_base(base_url) + "/md/ws", username, token, **options)
        await socket._start()
        return socket

    async def _resume(self, ws: Any) -> None:
        token = self._token() if callable(self._token) else self._token
        await self._request_on(ws, "login", {"username": self.username, "token": token})
        for symbol, book in self.books.items():  # after a reconnect: the same books, fresh snapshots
            book.ts_ns = 0
            await self._request_on(ws, "subscribe", subscribe_fields(symbol, book.level, book.depth))

    async def subscribe(self, symbol: str, level: str = "LEVEL_2", depth: int | None = None) -> Book:
        """Subscribes; the server then sends the stats and the current book. Returns the book.

        ``depth`` (perpsim's extension, 1 to 100,000) limits book updates to the first ``depth``
        levels a side; the server answers 400 for any other value. None: every level.
        """
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
        fields = subscribe_fields(symbol, level, depth)
        if symbol in self.books:  # let the server answer (409): the book held stays as it is
            await self.request("subscribe", **fields)
            return self.books[symbol]
        book = self.books[symbol] = Book(symbol, level, depth)
        try:
            await self.request("subscribe", **fields)
        except BaseException:
            del self.books[symbol]
            raise
        return book

    async def unsubscribe(self, symbol: str) -> None:
        await self.request("unsubscribe", symbol=symbol)
        self.books.pop(symbol, None)
        self.stats.pop(symbol, None)

    async def logout(self) -> str:
        """Logs out (ends every subscription; the socket stays open)."""
        self.reconnect = False
        result = await self.request("logout")
        self.books.clear()
        return result["logged_out"]

    def on_book(self, callback: Callable[[Book, BookUpdate], Any]) -> None:
        """``callback(book, update)`` after each update is applied."""
        self._book_callbacks.append(callback)

    def on_stats(self, callback: Callable[[TickerStats], Any]) -> None:
        self._stats_callbacks.append(callback)

    async def wait_for_book(self, symbol: str, predicate: Callable[[Book], bool], timeout: float | None = None) -> Book:
        """Waits until the subscribed book of ``symbol`` satisfies ``predicate``."""
        if symbol not in self.books:
            raise SocketError(404, f"not subscribed to {symbol}", "wait_for_book")
        book = self.books[symbol]
        await self.wait_until(lambda: predicate(book), timeout)
        return book

    def _on_push(self, message: dict[str, Any]) -> None:
        parsed = parse_market_data_message(message)
        if isinstance(parsed, BookUpdate):
            book = self.books.get(parsed.symbol)
            if book is not None and LEVELS[book.level] == parsed.level and book.apply(parsed):
                for callback in self._book_callbacks:
                    self._call(callback, book, parsed)
        elif isinstance(parsed, TickerStats):
            self.stats[parsed.symbol] = parsed
            for callback in self._stats_callbacks:
                self._call(callback, parsed)


def subscribe_fields(symbol: str, level: str, depth: int | None) -> dict[str, Any]:
    """A subscribe's fields; ``depth`` only when asked for (servers without the extension never see it)."""
    fields: dict[str, Any] = {"symbol": symbol, "level": level}
    if depth is not None:
        fields["depth"] = depth
    return fields

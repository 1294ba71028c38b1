"""What both websockets share: one connection with requests matched to replies by id,
pushed messages, heartbeats, exchange time, and reconnecting.

Written against the websockets API as Debian bookworm ships it (10.4): ``websockets.connect``
with ``open_timeout`` / ``ping_interval`` / ``close_timeout``, ``send``, ``recv``, ``close``
and ``websockets.exceptions.ConnectionClosed`` — all unchanged in later releases.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Callable, Optional

import websockets
from websockets.exceptions import ConnectionClosed, WebSocketException

from .errors import ConnectionLost, PerpsimError, RequestTimeout, SocketError

log = logging.getLogger("perpsim_client")

#: A token, or a function giving a fresh one (called again at every reconnect).
TokenSource = str | Callable[[], str]


def ws_base(url: str) -> str:
    """``http://host:port`` → ``ws://host:port`` (``https`` → ``wss``); ws URLs are kept."""
    if url.startswith("https://"):
        return "wss://" + url[len("https://") :].rstrip("/")
    if url.startswith("http://"):
        return "ws://" + url[len("http://") :].rstrip("/")
    return url.rstrip("/")


class RequestSocket:
    """A websocket speaking ``{id, type, …}`` → ``{id, result}`` | ``{id, error: {code, message}}``.

    Subclasses name the keys (the order socket says ``rid t res err msg``, the market-data
    socket ``request_id type result error message``), log in again in ``_resume`` after a
    reconnect, and handle pushed messages in ``_on_push``.

    Reconnect: when the connection drops (or is silent for ``heartbeat_timeout`` seconds — the
    server beats every 2 s), requests in flight fail with ``ConnectionLost``, and the socket
    reconnects with backoff, calls ``_resume`` and then the ``on_reconnect`` callbacks. A login
    refused on reconnect (expired token) stops it; ``error`` keeps why.
    """

    ID_KEY = "rid"
    TYPE_KEY = "t"
    RESULT_KEY = "res"
    ERROR_KEY = "err"
    MESSAGE_KEY = "msg"

    def __init__(self, url: str, *, timeout: float = 10.0, reconnect: bool = True, heartbeat_timeout: float = 10.0, max_backoff: float = 2.0) -> None:
        self.url = url
        self.timeout = timeout
        self.reconnect = reconnect
        self.heartbeat_timeout = heartbeat_timeout
        self.max_backoff = max_backoff
        #: Latest exchange time (ns) seen in any pushed message or heartbeat.
        self.exchange_time_ns = 0
        #: Exchange time of the latest heartbeat, None before the first.
        self.last_heartbeat_ns: Optional[int] = None
        #: Reconnections so far.
        self.reconnects = 0
        #: Why the socket stopped reconnecting, if it did.
        self.error: Optional[BaseException] = None
        self._ws: Any = None
        self._next_id = 1
        self._pending: dict[int, tuple[str, asyncio.Future[Any], Any]] = {}
        self._connected = asyncio.Event()
        self._closed = False
        self._supervisor: Optional[asyncio.Task[None]] = None
        self._changed = asyncio.Event()
        self._reconnect_callbacks: list[Callable[[], Any]] = []
        self._heartbeat_callbacks: list[Callable[[int], Any]] = []
        #: Replies that matched no request (the last 100), e.g. the error envelope of a malformed frame.
        self.unmatched: list[dict[str, Any]] = []

    # ---- lifecycle ----------------------------------------------------------------------

    async def _start(self) -> None:
        """First connection: errors (refused, bad token) propagate to the caller."""
        reader = await self._open()
        self._supervisor = asyncio.create_task(self._supervise(reader))

    async def close(self) -> None:
        """Closes the socket and stops reconnecting."""
        self._closed = True
        ws = self._ws
        if ws is not None:
            await ws.close()
        if self._supervisor is not None:
            try:
                await asyncio.wait_for(self._supervisor, self.timeout)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                self._supervisor.cancel()
        self._notify()

    async def __aenter__(self) -> RequestSocket:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def on_reconnect(self, callback: Callable[[], Any]) -> None:
        """``callback()`` after every successful reconnect (after logging in again)."""
        self._reconnect_callbacks.append(callback)

    def on_heartbeat(self, callback: Callable[[int], Any]) -> None:
        """``callback(ts_ns)`` for every heartbeat."""
        self._heartbeat_callbacks.append(callback)

    async def _open(self) -> asyncio.Task[None]:
        ws = await websockets.connect(self.url, open_timeout=self.timeout, ping_interval=None, close_timeout=1, max_size=2**26)
        reader = asyncio.create_task(self._read(ws))
        try:
            await self._resume(ws)
        except BaseException:
            await ws.close()
            await reader
            raise
        self._ws = ws
        self._connected.set()
        return reader

    async def _supervise(self, reader: asyncio.Task[None]) -> None:
        while True:
            await reader
            self._connected.clear()
            if self._closed or not self.reconnect:
                self._closed = True
                self._notify()
                return
            delay = 0.05
            while True:
                if self._closed:
                    return
                try:
                    reader = await self._open()
                    break
                except SocketError as e:  # the server refused the login: retrying will not help
                    log.error("perpsim_client: reconnect to %s refused: %s", self.url, e)
                    self.error = e
                    self._closed = True
                    self._notify()
                    return
                except (OSError, WebSocketException, PerpsimError, asyncio.TimeoutError) as e:
                    log.info("perpsim_client: reconnect to %s failed (%s); retrying in %.2fs", self.url, e, delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, self.max_backoff)
            self.reconnects += 1
            for callback in self._reconnect_callbacks:
                self._call(callback)
            self._notify()

    async def _read(self, ws: Any) -> None:
        """Reads until the connection ends (or is silent too long); then fails its requests."""
        try:
            while True:
                try:
                    text = await asyncio.wait_for(ws.recv(), self.heartbeat_timeout)
                except asyncio.TimeoutError:
                    log.warning("perpsim_client: no message from %s for %ss; reconnecting", self.url, self.heartbeat_timeout)
                    await ws.close()
                    return
                try:
                    message = json.loads(text)
                except ValueError:
                    log.warning("perpsim_client: not JSON from %s: %.80r", self.url, text)
                    continue
                if isinstance(message, dict):
                    self._dispatch(message)
        except ConnectionClosed:
            return
        finally:
            for rid, (kind, future, owner) in list(self._pending.items()):
                if owner is ws and not future.done():
                    future.set_exception(ConnectionLost(f"{kind}: connection to {self.url} lost"))

    # ---- requests -----------------------------------------------------------------------

    async def request(self, kind: str, **fields: Any) -> Any:
        """Sends request ``kind`` with ``fields`` and returns its result; ``SocketError`` on an error envelope."""
        if self._closed:
            raise ConnectionLost(f"{kind}: the socket is closed")
        if not self._connected.is_set():
            try:
                await asyncio.wait_for(self._connected.wait(), self.timeout)
            except asyncio.TimeoutError:
                raise RequestTimeout(f"{kind}: not connected within {self.timeout}s") from None
        return await self._request_on(self._ws, kind, fields)

    async def _request_on(self, ws: Any, kind: str, fields: dict[str, Any]) -> Any:
        rid = self._next_id
        self._next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[rid] = (kind, future, ws)
        try:
            await ws.send(json.dumps({self.ID_KEY: rid, self.TYPE_KEY: kind, **fields}))
            return await asyncio.wait_for(future, self.timeout)
        except asyncio.TimeoutError:
            raise RequestTimeout(f"{kind}: no answer within {self.timeout}s") from None
        except ConnectionClosed:
            raise ConnectionLost(f"{kind}: connection to {self.url} lost") from None
        finally:
            self._pending.pop(rid, None)

    async def send_raw(self, frame: dict[str, Any] | str) -> None:
        """Sends a frame as is (no id, no reply matching): for testing the server's error paths."""
        await self._ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    # ---- incoming -----------------------------------------------------------------------

    def _dispatch(self, message: dict[str, Any]) -> None:
        if self.ID_KEY in message:
            entry = self._pending.get(message[self.ID_KEY]) if isinstance(message[self.ID_KEY], int) else None
            if entry is None:
                self._on_unmatched(message)
                self._notify()
                return
            kind, future, _ = entry
            if future.done():
                return
            if self.ERROR_KEY in message:
                error = message[self.ERROR_KEY] or {}
                future.set_exception(SocketError(int(error.get("code", 0)), str(error.get(self.MESSAGE_KEY, "")), kind))
            elif self.RESULT_KEY in message:
                future.set_result(message[self.RESULT_KEY])
            else:  # the order socket's open orders: {"rid", "o": […]} with no res wrapper
                future.set_result({k: v for k, v in message.items() if k != self.ID_KEY})
            return
        if isinstance(message.get("ts"), int) and isinstance(message.get("tn"), int):
            self.exchange_time_ns = max(self.exchange_time_ns, message["ts"] * 1_000_000_000 + message["tn"])
        if message.get("t") == "h":
            self.last_heartbeat_ns = self.exchange_time_ns
            for callback in self._heartbeat_callbacks:
                self._call(callback, self.exchange_time_ns)
        self._on_push(message)
        self._notify()

    def _on_unmatched(self, message: dict[str, Any]) -> None:
        """A reply to no request of ours (e.g. the error envelope of a malformed frame, id null)."""
        self.unmatched.append(message)
        del self.unmatched[:-100]

    def _on_push(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    async def _resume(self, ws: Any) -> None:
        raise NotImplementedError

    # ---- waiting on state ---------------------------------------------------------------

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_until(self, predicate: Callable[[], bool], timeout: Optional[float] = None) -> None:
        """Returns once ``predicate()`` holds (checked now and after every message); ``RequestTimeout`` after ``timeout`` (default the socket's)."""
        deadline = asyncio.get_running_loop().time() + (self.timeout if timeout is None else timeout)
        while not predicate():
            if self._closed and not self.connected:
                raise ConnectionLost(f"{self.url}: closed while waiting")
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise RequestTimeout("the awaited condition did not occur in time")
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    @staticmethod
    def _call(callback: Callable[..., Any], *args: Any) -> None:
        try:
            result = callback(*args)
            if asyncio.iscoroutine(result):
                asyncio.ensure_future(result)
        except Exception:  # a user's callback must not kill the reader
            log.exception("perpsim_client: callback failed")

"""``Client``: one user's REST session and websockets from a single set of URLs."""

from __future__ import annotations

from typing import Any, Callable, Optional

from .market_data import MarketDataSocket
from .orders import OrderSocket
from .rest import RestClient


class Client:
    """``Client("http://127.0.0.1:8080").login("alice", "alice-password")``, then ``client.rest``
    for REST and ``await client.order_socket()`` / ``await client.market_data()`` for the sockets.

    ``ws_url`` is the websocket base (default: ``base_url`` with ws://), ``app_url`` {app_url}
    (default ``base_url``). Sockets opened here fetch a fresh token whenever they reconnect.
    """

    def __init__(self, base_url: str, *, app_url: Optional[str] = None, ws_url: Optional[str] = None, timeout: float = 10.0) -> None:
        self.base_url = base_url
        self.ws_url = ws_url or base_url
        self.rest = RestClient(base_url, app_url=app_url, timeout=timeout)
        self.timeout = timeout
        self._refresh: Optional[Callable[[], str]] = None

    def login(self, username: str, password: str, expiration_seconds: int = 86_400) -> Client:
        self.rest.login(username, password, expiration_seconds)
        self._refresh = lambda: self.rest.login(username, password, expiration_seconds)
        return self

    def login_api_key(self, api_key: str, secret: str, username: str, expiration_seconds: int = 86_400) -> Client:
        self.rest.login_api_key(api_key, secret, username, expiration_seconds)
        self._refresh = lambda: self.rest.login_api_key(api_key, secret, username, expiration_seconds)
        return self

    @property
    def username(self) -> str:
        if self.rest.username is None:
            raise RuntimeError("log in first")
        return self.rest.username

    def _token_source(self) -> Callable[[], str]:
        calls = 0

        def source() -> str:
            nonlocal calls
            calls += 1
            # The first login uses the token in hand; a reconnect asks for a fresh one (it may have expired).
            if calls > 1 and self._refresh is not None:
                return self._refresh()
            assert self.rest.token is not None
            return self.rest.token

        return source

    async def order_socket(self, **options: Any) -> OrderSocket:
        return await OrderSocket.connect(self.ws_url, self.username, self._token_source(), timeout=self.timeout, **options)

    async def market_data(self, **options: Any) -> MarketDataSocket:
        return await MarketDataSocket.connect(self.ws_url, self.username, self._token_source(), timeout=self.timeout, **options)

"""The REST endpoints of the interface document, synchronous, on the standard library
(``http.client``, one connection per request). In asyncio code call them through
``asyncio.to_thread`` (or accept the short block on a local server)."""

from __future__ import annotations

import http.client
import json
from datetime import datetime
from decimal import Decimal
from typing import Any, Optional
from urllib.parse import quote, urlencode, urlsplit

from .errors import HttpError, PerpsimError, ValidationError
from .models import (
    ApiKey,
    ApiRiskSnapshot,
    CancelAllResult,
    Candles,
    FundingRate,
    Instrument,
    MarkPrice,
    Order,
    RiskSnapshot,
)
from .times import to_wire_time

Time = int | str | datetime


class HttpTransport:
    """JSON over HTTP to one base URL; non-2xx answers raise ``HttpError`` / ``ValidationError``."""

    def __init__(self, base_url: str, timeout: float = 10.0) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self.timeout = timeout

    def call(self, method: str, path: str, body: Any = None, token: Optional[str] = None, query: Optional[dict[str, str]] = None) -> Any:
        """Sends the request and returns the decoded JSON body of a 2xx answer."""
        target = self._prefix + path + (f"?{urlencode(query)}" if query else "")
        headers = {"Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        cls = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
        conn = cls(self._host, self._port, timeout=self.timeout)
        try:
            conn.request(method, target, body=payload, headers=headers)
            response = conn.getresponse()
            raw = response.read()
            status = response.status
        except OSError as e:
            raise PerpsimError(f"{method} {path}: {e}") from e
        finally:
            conn.close()
        try:
            data = json.loads(raw) if raw else None
        except ValueError:
            data = raw.decode(errors="replace")
        if 200 <= status < 300:
            return data
        detail = data.get("detail", data) if isinstance(data, dict) else data
        error = ValidationError if status == 422 else HttpError
        raise error(status, detail, method, path)


class RestClient:
    """One user's REST session.

    ``base_url`` is {base_url} (``/auth /orders /settlement /candle /risk_manager``), ``app_url``
    {app_url} (``/api/…``; default ``base_url``). Get a token with ``login`` (password) or
    ``login_api_key``; the order endpoints send the username the token belongs to.
    """

    def __init__(self, base_url: str, *, app_url: Optional[str] = None, token: Optional[str] = None, username: Optional[str] = None, timeout: float = 10.0) -> None:
        self.base = HttpTransport(base_url, timeout)
        self.app = HttpTransport(app_url or base_url, timeout)
        self.token = token
        self.username = username

    # ---- tokens -------------------------------------------------------------------------

    def login(self, username: str, password: str, expiration_seconds: int = 86_400) -> str:
        """POST /auth/get_user_token; keeps the token and username for later calls."""
        body = {"username": username, "password": password, "expiration_seconds": expiration_seconds}
        self.token = self.base.call("POST", "/auth/get_user_token", body)["token"]
        self.username = username
        return self.token

    def login_api_key(self, api_key: str, secret: str, username: str, expiration_seconds: int = 86_400) -> str:
        """POST /auth/get_user_token_api_key (the answer does not name the user: give it)."""
        body = {"api_key": api_key, "secret": secret, "expiration_seconds": expiration_seconds}
        self.token = self.base.call("POST", "/auth/get_user_token_api_key", body)["token"]
        self.username = username
        return self.token

    def create_api_key(self, password: str, totp: Optional[str] = None) -> ApiKey:
        """POST {app_url}/api/api-keys: a new key and its secret (shown once)."""
        body = {"username": self._user(), "password": password, "totp": totp}
        data = self.app.call("POST", "/api/api-keys", body, self.token)
        return ApiKey(data["api_key"], data["secret"])

    # ---- instruments --------------------------------------------------------------------

    def instruments(self) -> list[Instrument]:
        return [Instrument.from_wire(i) for i in self.base.call("GET", "/auth/instruments", token=self.token)["instruments"]]

    def instrument(self, symbol: str) -> Instrument:
        return Instrument.from_wire(self.base.call("GET", f"/auth/instruments/{quote(symbol, safe='')}", token=self.token))

    # ---- orders -------------------------------------------------------------------------

    def insert_order(self, symbol: str, side: str, quantity: int, price: Decimal | str | int, time_in_force: str = "GTC", post_only: bool = False) -> str:
        """POST /orders/insert_order; the order id. A business reject is a ``j`` feed, not an error."""
        body = {
            "username": self._user(),
            "symbol": symbol,
            "price": price_text(price),
            "quantity": quantity,
            "side": side,
            "time_in_force": time_in_force,
            "post_only": post_only,
        }
        return self.base.call("POST", "/orders/insert_order", body, self.token)["order_id"]

    def cancel_order(self, order_id: str) -> None:
        """POST /orders/cancel_order; the outcome is a ``c`` or ``e`` feed."""
        self.base.call("POST", "/orders/cancel_order", {"username": self._user(), "order_id": order_id}, self.token)

    def open_orders(self) -> list[Order]:
        data = self.base.call("POST", "/orders/get_open_orders", {"username": self._user()}, self.token)
        return [Order.from_wire(o) for o in data["orders"]]

    def cancel_all(self) -> CancelAllResult:
        data = self.base.call("POST", "/orders/cancel_all", {"username": self._user()}, self.token)
        return CancelAllResult(list(data["successful_cancellations"]), list(data["failed_cancellations"]))

    # ---- market history -----------------------------------------------------------------

    def mtm_prices(self, symbol: str, start: Time, end: Time) -> list[MarkPrice]:
        body = {"symbol": symbol, "start_time": to_wire_time(start), "end_time": to_wire_time(end)}
        return [MarkPrice.from_wire(r) for r in self.base.call("POST", "/settlement/get_mtm_prices", body)]

    def funding_rates(self, symbol: str, start: Time, end: Time) -> list[FundingRate]:
        body = {"symbol": symbol, "start_time": to_wire_time(start), "end_time": to_wire_time(end)}
        return [FundingRate.from_wire(r) for r in self.base.call("POST", "/settlement/get_funding_rates", body)]

    def candles(self, market: str, interval: str, start: Time, end: Time) -> Candles:
        body = {"market": market, "interval": interval, "start_time": to_wire_time(start), "end_time": to_wire_time(end)}
        return Candles.from_wire(self.base.call("POST", "/candle/historical_candles", body))

    # ---- risk ---------------------------------------------------------------------------

    def risk_snapshot(self) -> Optional[RiskSnapshot]:
        """GET /risk_manager/risk_snapshot (the user-based form; the document allows null)."""
        data = self.base.call("GET", "/risk_manager/risk_snapshot", token=self.token, query={"username": self._user()})
        return None if data is None else RiskSnapshot.from_wire(data)

    def api_risk_snapshot(self) -> ApiRiskSnapshot:
        """GET {app_url}/api/risk-snapshot (the token-based form, ``per_symbol``)."""
        return ApiRiskSnapshot.from_wire(self.app.call("GET", "/api/risk-snapshot", token=self.token))

    def _user(self) -> str:
        if self.username is None or self.token is None:
            raise PerpsimError("not logged in: call login() or login_api_key() first")
        return self.username


def price_text(price: Decimal | str | int) -> str:
    """A price as the wire's plain decimal text (``Decimal('5E+4')`` → ``"50000"``); floats are refused."""
    if isinstance(price, float):
        raise TypeError("prices are exact: give a Decimal, an int or decimal text, not a float")
    if isinstance(price, str):
        return price
    text = format(Decimal(price), "f")
    return text

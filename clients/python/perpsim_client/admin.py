"""perpsim's admin API (an extension beyond the interface document, guarded by the server's
admin token): the simulation clock, users and cash, administrative cancels, instrument
states, the state hash. Useful in tests: ``perpsim serve --manual`` holds time still until
``advance``."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Optional
from urllib.parse import quote

from .models import Instrument
from .rest import HttpTransport


class AdminClient:
    def __init__(self, base_url: str, admin_token: str, timeout: float = 30.0) -> None:
        self.http = HttpTransport(base_url, timeout)
        self.token = admin_token

    def clock(self) -> dict[str, Any]:
        """``{"now_ns": "…", "speed": …, "paused": …}``."""
        return self.http.call("GET", "/admin/clock", token=self.token)

    def now_ns(self) -> int:
        return int(self.clock()["now_ns"])

    def advance(self, seconds: float) -> dict[str, Any]:
        """Moves sim time forward; every event up to the new time runs before the answer."""
        return self.http.call("POST", "/admin/clock/advance", {"seconds": seconds}, self.token)

    def create_user(self, username: str, password: str, cash: Decimal | str | int, totp_secret: Optional[str] = None) -> None:
        body: dict[str, Any] = {"username": username, "password": password, "cash": str(cash)}
        if totp_secret is not None:
            body["totp_secret"] = totp_secret
        self.http.call("POST", "/admin/users", body, self.token)

    def cancel_order(self, order_id: str) -> None:
        """Cancels any user's order (feed ``c`` with ``xr: EXCHANGE_OPTION``)."""
        self.http.call("POST", "/admin/orders/cancel", {"order_id": order_id}, self.token)

    def set_instrument_state(self, symbol: str, state: str) -> Instrument:
        data = self.http.call("POST", f"/admin/instruments/{quote(symbol, safe='')}/state", {"state": state}, self.token)
        return Instrument.from_wire(data)

    def state_hash(self) -> str:
        return self.http.call("GET", "/admin/state_hash", token=self.token)["state_hash"]

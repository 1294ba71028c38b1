"""The websocket messages as typed dataclasses: order feeds (``n j p f c x e d r``) with the
order in websocket form, heartbeats, ticker stats and book updates. ``parse_order_message`` /
``parse_market_data_message`` turn a pushed frame into one of them (``None`` for a type this
client does not know, so a newer server's extra messages are skipped, not fatal)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Optional, Union

from .times import ns_of

#: Feed type letter → name, as the interface document's Events table lists them.
FEED_TYPES = {
    "n": "new",
    "j": "rejected",
    "p": "partial_fill",
    "f": "fill",
    "c": "canceled",
    "x": "expired",
    "e": "cancel_reject",
    "d": "done_for_day",
    "r": "replaced",
}

#: Order states in which an order is finished (``remaining_quantity`` is 0).
TERMINAL_STATES = frozenset({"FILLED", "CANCELED", "REJECTED", "EXPIRED", "REPLACED", "DONE_FOR_DAY"})


@dataclass(frozen=True, slots=True)
class WsOrder:
    """An order in websocket form (short keys on the wire: oid u s p q xq rq o d tif liq ts tn)."""

    order_id: str
    username: str
    symbol: str
    price: Decimal
    quantity: int
    filled_quantity: int
    remaining_quantity: int
    state: str
    side: str
    time_in_force: str
    is_liquidation: bool
    insert_ns: int

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> WsOrder:
        return cls(
            order_id=d["oid"],
            username=d["u"],
            symbol=d["s"],
            price=Decimal(d["p"]),
            quantity=int(d["q"]),
            filled_quantity=int(d["xq"]),
            remaining_quantity=int(d["rq"]),
            state=d["o"],
            side=d["d"],
            time_in_force=d["tif"],
            is_liquidation=bool(d["liq"]),
            insert_ns=ns_of(int(d["ts"]), int(d["tn"])),
        )

    @property
    def is_open(self) -> bool:
        return self.state not in TERMINAL_STATES


@dataclass(frozen=True, slots=True)
class FillDetails:
    """``xs`` of Partial Fill / Fill feeds; ``side`` is the recipient's side, ``aggressor`` True when it took liquidity."""

    trade_id: str
    symbol: str
    quantity: int
    price: Decimal
    side: str
    aggressor: bool

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> FillDetails:
        return cls(d["tid"], d["s"], int(d["q"]), Decimal(d["p"]), d["d"], bool(d["agg"]))


@dataclass(frozen=True, slots=True)
class OrderFeed:
    """One order feed. ``type`` is the wire letter, ``kind`` its name (``"fill"``…).

    ``order`` is absent only on a Cancel Reject (``e``), which names the order in ``order_id``
    instead; ``reason`` is ``r`` (j, e), ``cancel_reason`` ``xr`` (c), ``fill`` the ``xs`` (p, f).
    """

    type: str
    ts_ns: int
    execution_id: Optional[str]
    order: Optional[WsOrder]
    order_id: Optional[str]
    reason: Optional[str] = None
    cancel_reason: Optional[str] = None
    text: Optional[str] = None
    fill: Optional[FillDetails] = None

    @property
    def kind(self) -> str:
        return FEED_TYPES.get(self.type, self.type)

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> OrderFeed:
        order = WsOrder.from_wire(d["o"]) if isinstance(d.get("o"), dict) else None
        return cls(
            type=d["t"],
            ts_ns=ns_of(int(d["ts"]), int(d["tn"])),
            execution_id=d.get("eid"),
            order=order,
            order_id=order.order_id if order is not None else d.get("oid"),
            reason=d.get("r"),
            cancel_reason=d.get("xr"),
            text=d.get("txt"),
            fill=FillDetails.from_wire(d["xs"]) if isinstance(d.get("xs"), dict) else None,
        )


@dataclass(frozen=True, slots=True)
class Heartbeat:
    ts_ns: int


@dataclass(frozen=True, slots=True)
class TickerStats:
    """``t: "s"``: last trade price / quantity, session open / low / high, volume (lots)."""

    symbol: str
    ts_ns: int
    last_price: Decimal
    last_quantity: int
    open: Decimal
    low: Decimal
    high: Decimal
    volume: int

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> TickerStats:
        return cls(d["s"], ns_of(int(d["ts"]), int(d["tn"])), Decimal(d["p"]), int(d["q"]), Decimal(d["o"]), Decimal(d["l"]), Decimal(d["h"]), int(d["v"]))


@dataclass(frozen=True, slots=True)
class BookLevel:
    """One price level; ``orders`` (order quantities in queue order) only at LEVEL_3."""

    price: Decimal
    quantity: int
    orders: Optional[tuple[int, ...]] = None

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> BookLevel:
        orders = d.get("o")
        return cls(Decimal(d["p"]), int(d["q"]), tuple(int(q) for q in orders) if orders is not None else None)


@dataclass(frozen=True, slots=True)
class BookUpdate:
    """``t: "1" | "2" | "3"``: the book at that level; bids descending, asks ascending."""

    level: int
    symbol: str
    ts_ns: int
    bids: tuple[BookLevel, ...]
    asks: tuple[BookLevel, ...]

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> BookUpdate:
        return cls(
            int(d["t"]),
            d["s"],
            ns_of(int(d["ts"]), int(d["tn"])),
            tuple(BookLevel.from_wire(level) for level in d.get("b", [])),
            tuple(BookLevel.from_wire(level) for level in d.get("a", [])),
        )


OrderMessage = Union[OrderFeed, Heartbeat]
MarketDataMessage = Union[BookUpdate, TickerStats, Heartbeat]


def parse_order_message(d: dict[str, Any]) -> Optional[OrderMessage]:
    """A pushed frame of the order socket as a feed or a heartbeat."""
    t = d.get("t")
    if t == "h":
        return Heartbeat(ns_of(int(d["ts"]), int(d["tn"])))
    if t in FEED_TYPES:
        return OrderFeed.from_wire(d)
    return None


def parse_market_data_message(d: dict[str, Any]) -> Optional[MarketDataMessage]:
    """A pushed frame of the market-data socket as a book update, stats or a heartbeat."""
    t = d.get("t")
    if t == "h":
        return Heartbeat(ns_of(int(d["ts"]), int(d["tn"])))
    if t == "s":
        return TickerStats.from_wire(d)
    if t in ("1", "2", "3"):
        return BookUpdate.from_wire(d)
    return None

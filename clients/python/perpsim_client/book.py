"""A local order book kept up to date from market-data updates.

The server sends every update as a full snapshot of the subscribed level (decisions.md:
"Updates are full snapshots of the subscribed level … coalesced"), so keeping the book is
replacing it, in order: an update older than the one held (lower exchange time) is ignored.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Optional

from .feeds import BookLevel, BookUpdate

LEVELS = {"LEVEL_1": 1, "LEVEL_2": 2, "LEVEL_3": 3}


class Book:
    """The book of one symbol at one level (``"LEVEL_1"``, ``"LEVEL_2"`` or ``"LEVEL_3"``)."""

    def __init__(self, symbol: str, level: str, depth: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
        self.symbol = symbol
        self.level = level
        #: Levels a side the server sends (the subscribe's ``depth``); None: every level.
        self.depth = depth
        self.bids: tuple[BookLevel, ...] = ()
        self.asks: tuple[BookLevel, ...] = ()
        #: Exchange time of the update held (0 before the first one).
        self.ts_ns = 0
        #: Updates applied so far.
        self.updates = 0

    def apply(self, update: BookUpdate) -> bool:
        """Takes ``update`` if it is for this book and not older than the one held; True if taken."""
        if update.symbol != self.symbol or update.level != LEVELS[self.level]:
            raise ValueError(f"a LEVEL_{update.level} update of {update.symbol} does not belong to the {self.level} book of {self.symbol}")
        if update.ts_ns < self.ts_ns:
            return False
        self.bids, self.asks, self.ts_ns = update.bids, update.asks, update.ts_ns
        self.updates += 1
        return True

    @property
    def best_bid(self) -> Optional[BookLevel]:
        return self.bids[0] if self.bids else None

    @property
    def best_ask(self) -> Optional[BookLevel]:
        return self.asks[0] if self.asks else None

    @property
    def mid(self) -> Optional[Decimal]:
        """The mid price, or None while a side is empty."""
        if not self.bids or not self.asks:
            return None
        return (self.bids[0].price + self.asks[0].price) / 2

    @property
    def spread(self) -> Optional[Decimal]:
        if not self.bids or not self.asks:
            return None
        return self.asks[0].price - self.bids[0].price

    def quantity_at(self, side: str, price: Decimal) -> int:
        """Total quantity at ``price`` on ``side`` (``"B"`` bids, ``"S"`` asks), 0 if none."""
        levels = self.bids if side == "B" else self.asks
        return next((level.quantity for level in levels if level.price == Decimal(price)), 0)

    def __repr__(self) -> str:
        bid = f"{self.best_bid.quantity}@{self.best_bid.price}" if self.best_bid else "-"
        ask = f"{self.best_ask.quantity}@{self.best_ask.price}" if self.best_ask else "-"
        return f"Book({self.symbol} {self.level} {bid} / {ask}, {len(self.bids)}x{len(self.asks)} levels)"

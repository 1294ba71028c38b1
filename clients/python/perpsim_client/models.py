"""Typed views of the exchange's messages, as frozen dataclasses. Prices and money are
``Decimal`` (the wire's decimal text, exact), quantities ``int`` (lots), times integer
nanoseconds (``*_ns``) next to the wire's own text where REST gives one. Each class has
``from_wire(dict)``; unknown keys are ignored so a newer server does not break an older client."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Optional

from .times import ns_of, parse_time_ns


def _convert(kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind.startswith("Decimal"):
        return Decimal(value)
    if kind.startswith("int"):
        return int(value)
    return value


def _build(cls: type, wire: dict[str, Any], **given: Any) -> Any:
    """``cls`` from the wire keys named like its fields (types from the annotations), plus ``given``."""
    values = dict(given)
    for f in dataclasses.fields(cls):
        if f.name not in values and f.name in wire:
            values[f.name] = _convert(str(f.type), wire[f.name])
    return cls(**values)


# ---- REST resources --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Instrument:
    symbol: str
    tick_size: Decimal
    base_currency: str
    multiplier: int
    minimum_trade_quantity: int
    description: str
    product_id: str
    state: str
    price_scale: int

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> Instrument:
        return _build(cls, d)

    def to_ticks(self, price: Decimal) -> int:
        """A price as an exact number of ticks; ValueError when it is off the tick grid."""
        ticks = Decimal(price) / self.tick_size
        if ticks != ticks.to_integral_value():
            raise ValueError(f"{price} is not a multiple of the tick size {self.tick_size}")
        return int(ticks)

    def to_price(self, ticks: int) -> Decimal:
        """Ticks as a price (exact)."""
        return (self.tick_size * ticks).normalize()


@dataclass(frozen=True, slots=True)
class Order:
    """An order in REST form (get_open_orders)."""

    order_id: str
    username: str
    symbol: str
    price: Decimal
    quantity: int
    traded_quantity: int
    average_traded_price: Decimal
    remaining_quantity: int
    state: str
    side: str
    time_in_force: str
    is_liquidation: bool
    insert_time: str
    insert_epoch_seconds: int
    insert_epoch_nanos: int

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> Order:
        return _build(cls, d)

    @property
    def insert_ns(self) -> int:
        return ns_of(self.insert_epoch_seconds, self.insert_epoch_nanos)


@dataclass(frozen=True, slots=True)
class CancelAllResult:
    successful: list[str]
    failed: list[str]


@dataclass(frozen=True, slots=True)
class MarkPrice:
    timestamp: str
    symbol: str
    mtm_price: Decimal

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> MarkPrice:
        return _build(cls, d)

    @property
    def ts_ns(self) -> int:
        return parse_time_ns(self.timestamp)


@dataclass(frozen=True, slots=True)
class FundingRate:
    timestamp: str
    symbol: str
    benchmark_price: Decimal
    settlement_price: Decimal
    funding_amount: Decimal
    funding_rate: Decimal

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> FundingRate:
        return _build(cls, d)

    @property
    def ts_ns(self) -> int:
        return parse_time_ns(self.timestamp)


@dataclass(frozen=True, slots=True)
class Candle:
    timestamp: str
    open: Decimal
    high: Decimal
    low: Decimal
    close: Decimal
    volume: Decimal
    buy_volume: Decimal
    sell_volume: Decimal

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> Candle:
        return _build(cls, d)

    @property
    def ts_ns(self) -> int:
        return parse_time_ns(self.timestamp)


@dataclass(frozen=True, slots=True)
class Candles:
    market: str
    interval: str
    candles: list[Candle]

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> Candles:
        return cls(d["market"], d["interval"], [Candle.from_wire(c) for c in d.get("candles", [])])


@dataclass(frozen=True, slots=True)
class Position:
    symbol: str
    net_quantity: Decimal
    buy_quantity: Decimal
    buy_notional: Decimal
    realized_pnl: Decimal
    sell_quantity: Decimal
    sell_notional: Decimal
    buy_vwap: Decimal
    sell_vwap: Decimal
    unrealized_pnl: Decimal
    initial_margin: Decimal
    maintenance_margin: Decimal
    mark_price: Decimal


@dataclass(frozen=True, slots=True)
class RiskSnapshot:
    """The user-based snapshot of GET /risk_manager/risk_snapshot."""

    timestamp: str
    username: str
    positions: list[Position]
    cash_balance: Decimal
    total_realized_pnl: Decimal
    total_unrealized_pnl: Decimal
    total_initial_margin: Decimal
    total_maintenance_margin: Decimal
    total_equity: Decimal
    available_initial_margin: Decimal
    available_maintenance_margin: Decimal

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> RiskSnapshot:
        return _build(cls, d, positions=[_build(Position, p) for p in d.get("positions", [])])

    def position(self, symbol: str) -> Optional[Position]:
        return next((p for p in self.positions if p.symbol == symbol), None)


@dataclass(frozen=True, slots=True)
class SymbolRisk:
    net_quantity: Decimal
    mark_price: Decimal
    average_entry_price: Decimal
    unrealized_pnl: Decimal
    realized_pnl: Decimal
    initial_margin: Decimal
    maintenance_margin: Decimal
    open_orders: int
    initial_margin_required_for_open_orders: Decimal


@dataclass(frozen=True, slots=True)
class ApiRiskSnapshot:
    """The token-based snapshot of GET {app_url}/api/risk-snapshot (unwrapped from ``risk_snapshot``)."""

    balance_usd: Decimal
    equity: Decimal
    initial_margin_available: Decimal
    initial_margin_required_for_open_orders: Decimal
    initial_margin_required_for_positions: Decimal
    initial_margin_required_total: Decimal
    maintenance_margin_available: Decimal
    maintenance_margin_required: Decimal
    per_symbol: dict[str, SymbolRisk]
    timestamp_ns: str
    unrealized_pnl: Decimal
    user_id: str

    @classmethod
    def from_wire(cls, d: dict[str, Any]) -> ApiRiskSnapshot:
        inner = d["risk_snapshot"]
        per_symbol = {s: _build(SymbolRisk, v) for s, v in inner.get("per_symbol", {}).items()}
        return _build(cls, inner, per_symbol=per_symbol)


@dataclass(frozen=True, slots=True)
class ApiKey:
    api_key: str
    secret: str

"""perpsim_client: a Python client for perpsim and any exchange speaking its interface.

REST (``RestClient``, synchronous, standard library) and both websockets (``OrderSocket``,
``MarketDataSocket``, asyncio, on ``websockets`` ≥ 10.4). Prices and money are ``Decimal``,
quantities ``int`` lots, times integer nanoseconds.
"""

from .admin import AdminClient
from .book import Book
from .client import Client
from .errors import ConnectionLost, HttpError, PerpsimError, RequestTimeout, SocketError, ValidationError
from .feeds import FEED_TYPES, BookLevel, BookUpdate, FillDetails, Heartbeat, OrderFeed, TickerStats, WsOrder
from .market_data import MarketDataSocket
from .models import (
    ApiKey,
    ApiRiskSnapshot,
    CancelAllResult,
    Candle,
    Candles,
    FundingRate,
    Instrument,
    MarkPrice,
    Order,
    Position,
    RiskSnapshot,
    SymbolRisk,
)
from .orders import OrderSocket, next_feed
from .rest import RestClient
from .times import format_time_ns, parse_time_ns

__version__ = "0.1.0"

__all__ = [
    "AdminClient", "ApiKey", "ApiRiskSnapshot", "Book", "BookLevel", "BookUpdate", "CancelAllResult", "Candle",
    "Candles", "Client", "ConnectionLost", "FEED_TYPES", "FillDetails", "FundingRate", "Heartbeat", "HttpError",
    "Instrument", "MarkPrice", "MarketDataSocket", "Order", "OrderFeed", "OrderSocket", "PerpsimError", "Position",
    "RequestTimeout", "RestClient", "RiskSnapshot", "SocketError", "SymbolRisk", "TickerStats", "ValidationError",
    "WsOrder", "format_time_ns", "next_feed", "parse_time_ns",
]

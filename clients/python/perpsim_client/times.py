"""Exact exchange time. Websockets carry ``ts`` (Unix seconds) + ``tn`` (nanoseconds); REST
carries RFC 3339 text with up to nine fractional digits. Both become integer nanoseconds
since the Unix epoch, because a float or a ``datetime`` (microseconds) would lose the exact time."""

from __future__ import annotations

import calendar
import re
from datetime import datetime, timezone

_RFC3339 = re.compile(r"^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|z|[+-]\d\d:\d\d)$")

NS_PER_SEC = 1_000_000_000


def ns_of(ts: int, tn: int) -> int:
    """Nanoseconds since the epoch of a websocket ``ts`` / ``tn`` pair."""
    return ts * NS_PER_SEC + tn


def parse_time_ns(text: str) -> int:
    """RFC 3339 text (``2026-01-01T00:00:00.123456789Z``) as exact nanoseconds since the epoch."""
    m = _RFC3339.match(text)
    if m is None:
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    year, month, day, hour, minute, second = (int(m.group(i)) for i in range(1, 7))
    seconds = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
    fraction = int((m.group(7) or "").ljust(9, "0"))
    offset = m.group(8)
    if offset not in ("Z", "z"):
        sign = 1 if offset[0] == "+" else -1
        seconds -= sign * (int(offset[1:3]) * 3600 + int(offset[4:6]) * 60)
    return seconds * NS_PER_SEC + fraction


def format_time_ns(ns: int) -> str:
    """Nanoseconds since the epoch as RFC 3339 UTC with nine fractional digits."""
    seconds, nanos = divmod(ns, NS_PER_SEC)
    stamp = datetime.fromtimestamp(seconds, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    return f"{stamp}.{nanos:09d}Z"


def to_wire_time(value: int | str | datetime) -> str:
    """A request date-time: nanoseconds (int), RFC 3339 text (kept as is) or an aware datetime."""
    if isinstance(value, bool):
        raise TypeError("a time is an int of nanoseconds, RFC 3339 text or a datetime")
    if isinstance(value, int):
        return format_time_ns(value)
    if isinstance(value, str):
        return value
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a naive datetime is ambiguous: give it a timezone (UTC)")
        return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")
    raise TypeError("a time is an int of nanoseconds, RFC 3339 text or a datetime")

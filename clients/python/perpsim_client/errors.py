"""Errors of the client. The server's own words are kept: a 422 keeps FastAPI's issue list,
a websocket error envelope its code and message. Business outcomes (rejects, cancel
rejects) are never exceptions: they arrive as order feeds."""

from __future__ import annotations

from typing import Any


class PerpsimError(Exception):
    """Anything the exchange refused or could not answer."""


class HttpError(PerpsimError):
    """A REST call answered with a non-2xx status; ``detail`` is the body's ``detail``."""

    def __init__(self, status: int, detail: Any, method: str = "", path: str = "") -> None:
        self.status = status
        self.detail = detail
        self.method = method
        self.path = path
        super().__init__(f"{method} {path}: HTTP {status}: {describe_detail(detail)}".strip())


class ValidationError(HttpError):
    """A 422: ``issues`` is FastAPI's list of ``{"type", "loc", "msg", "input", "ctx"?}``."""

    @property
    def issues(self) -> list[dict[str, Any]]:
        return self.detail if isinstance(self.detail, list) else []

    def fields(self) -> list[str]:
        """The failing fields as dotted locations, e.g. ``["body.price"]``."""
        return [".".join(str(part) for part in issue.get("loc", [])) for issue in self.issues]


class SocketError(PerpsimError):
    """A websocket request answered with an error envelope (``err`` / ``error``)."""

    def __init__(self, code: int, message: str, request: str = "") -> None:
        self.code = code
        self.message = message
        self.request = request
        super().__init__(f"{request}: {code} {message}" if request else f"{code} {message}")


class ConnectionLost(PerpsimError):
    """The socket closed (or was reconnected) before the request was answered."""


class RequestTimeout(PerpsimError):
    """No answer within the client's timeout."""


def describe_detail(detail: Any) -> str:
    """A 422 issue list as ``loc: msg; …``; any other detail as text."""
    if isinstance(detail, list):
        parts = []
        for issue in detail:
            if isinstance(issue, dict):
                loc = ".".join(str(p) for p in issue.get("loc", []))
                parts.append(f"{loc}: {issue.get('msg', '')}")
        if parts:
            return "; ".join(parts)
    return str(detail)

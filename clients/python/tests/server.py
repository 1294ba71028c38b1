"""The perpsim server the tests talk to: one ``perpsim serve --scenario empty --manual
--port 0`` for the whole run (started on first use, stopped at exit), or the server at
``$PERPSIM_URL`` (with ``$PERPSIM_ADMIN_TOKEN``) when set. Every test class makes its own
users, so tests never see each other's orders."""

from __future__ import annotations

import atexit
import itertools
import os
import re
import subprocess
import sys
import threading
from decimal import Decimal
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from perpsim_client import AdminClient, Client  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
ADMIN_TOKEN = "python-client-tests"
BTC = "BTCUSD-PERP"
ETH = "ETHUSD-PERP"


class Server:
    def __init__(self, url: str, admin_token: str, process: Optional[subprocess.Popen[str]] = None) -> None:
        self.url = url
        self.admin = AdminClient(url, admin_token)
        self.process = process
        self._names = itertools.count(1)

    def new_user(self, prefix: str = "py", cash: str = "1000000") -> Client:
        """A fresh user with ``cash``, logged in."""
        name = f"{prefix}-{os.getpid()}-{next(self._names)}"
        self.admin.create_user(name, f"{name}-pw", Decimal(cash))
        return Client(self.url).login(name, f"{name}-pw")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


_server: Optional[Server] = None


def server() -> Server:
    global _server
    if _server is None:
        _server = _connect() if os.environ.get("PERPSIM_URL") else _spawn()
        atexit.register(_server.stop)
    return _server


def _connect() -> Server:
    return Server(os.environ["PERPSIM_URL"].rstrip("/"), os.environ.get("PERPSIM_ADMIN_TOKEN", ADMIN_TOKEN))


def _spawn() -> Server:
    command = ["node", str(REPO / "src/cli/bin.js"), "serve", "--scenario", "empty", "--manual", "--port", "0", "--admin-token", ADMIN_TOKEN]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    seen = []
    url = None
    timer = threading.Timer(60, process.kill)  # a server that never comes up must not hang the run
    timer.start()
    for line in process.stdout:
        seen.append(line)
        m = re.match(r"^REST:\s+(http://\S+)", line)
        if m:
            url = m.group(1)
            break
    timer.cancel()
    if url is None:
        raise RuntimeError("perpsim serve did not start:\n" + "".join(seen))
    # Keep reading its output so the pipe never fills.
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()  # type: ignore[union-attr]
    return Server(url, ADMIN_TOKEN, process)

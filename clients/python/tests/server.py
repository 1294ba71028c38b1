"""The perpsim server the tests talk to: one ``perpsim serve --scenario empty --manual
--port 0 --port-file …`` for the whole run (started on first use, stopped at exit), or the server at
``$PERPSIM_URL`` (with ``$PERPSIM_ADMIN_TOKEN``) when set. Every test class makes its own
users, so tests never see each other's orders."""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
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
    def __init__(self, url: str, admin_token: str, process: Optional[subprocess.Popen[bytes]] = None, workdir: Optional[Path] = None) -> None:
        self.url = url
        self.workdir = workdir
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
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)


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
    """``perpsim serve`` as the README's recipe for test suites has it: ``--port 0 --port-file``."""
    workdir = Path(tempfile.mkdtemp(prefix="perpsim-py-tests-"))
    port_file, log_path = workdir / "port", workdir / "serve.log"
    command = ["node", str(REPO / "src/cli/bin.js"), "serve", "--scenario", "empty", "--manual", "--port", "0",
               "--port-file", str(port_file), "--admin-token", ADMIN_TOKEN]
    with open(log_path, "w") as log:  # a file, not a pipe: nobody has to keep reading it
        process = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60  # a server that never comes up must not hang the run
    while not port_file.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"perpsim serve did not start (exit {process.poll()}):\n{log_path.read_text()}")
        time.sleep(0.05)
    return Server(f"http://127.0.0.1:{int(port_file.read_text().strip())}", ADMIN_TOKEN, process, workdir)

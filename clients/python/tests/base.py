"""Test cases on the shared server: users made per test, their orders canceled after it, so
the books are empty when each test starts (tests run one after another)."""

from __future__ import annotations

import asyncio
import unittest

from perpsim_client import Client

from .server import Server, server


class ServerTest(unittest.IsolatedAsyncioTestCase):
    srv: Server

    @classmethod
    def setUpClass(cls) -> None:
        cls.srv = server()

    async def asyncSetUp(self) -> None:
        # The REST calls are synchronous (user creation hashes a password): not a slow callback worth a warning.
        asyncio.get_running_loop().slow_callback_duration = 5.0

    def setUp(self) -> None:
        self._users: list[Client] = []
        self._closers: list = []

    def user(self, prefix: str = "py", cash: str = "1000000") -> Client:
        client = self.srv.new_user(prefix, cash)
        self._users.append(client)
        return client

    async def sockets(self, client: Client):
        """An order socket and a market-data socket of ``client``, closed after the test."""
        orders = await client.order_socket()
        md = await client.market_data()
        self._closers += [orders.close, md.close]
        return orders, md

    async def asyncTearDown(self) -> None:
        for close in self._closers:
            await close()
        for client in self._users:
            client.rest.cancel_all()

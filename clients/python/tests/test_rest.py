"""REST endpoints through RestClient against perpsim serve (empty scenario, manual clock)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time
import unittest
from decimal import Decimal

from perpsim_client import Client, HttpError, PerpsimError, RestClient, ValidationError
from perpsim_client.rest import price_text

from .base import ServerTest
from .server import BTC, ETH

MINUTE_NS = 60 * 10**9


class TokensAndInstruments(ServerTest):
    def test_a_password_token_lists_the_instruments_with_exact_tick_sizes(self) -> None:
        client = self.user()
        instruments = {i.symbol: i for i in client.rest.instruments()}
        self.assertEqual(set(instruments), {BTC, ETH})
        self.assertEqual(instruments[BTC].tick_size, Decimal("0.5"))
        self.assertEqual(instruments[ETH].tick_size, Decimal("0.01"))
        self.assertEqual(client.rest.instrument(ETH), instruments[ETH])
        self.assertEqual(instruments[BTC].to_ticks(Decimal("50000.5")), 100001)

    def test_a_wrong_password_is_a_401_carrying_the_servers_detail(self) -> None:
        with self.assertRaises(HttpError) as caught:
            RestClient(self.srv.url).login("alice", "not-her-password")
        self.assertEqual(caught.exception.status, 401)
        self.assertEqual(caught.exception.detail, "Incorrect username or password")

    def test_an_out_of_range_expiration_is_a_422_whose_issues_name_the_field(self) -> None:
        with self.assertRaises(ValidationError) as caught:
            RestClient(self.srv.url).login("alice", "alice-password", expiration_seconds=0)
        error = caught.exception
        self.assertEqual(error.status, 422)
        self.assertEqual(error.fields(), ["body.expiration_seconds"])
        self.assertEqual(error.issues[0]["type"], "greater_than_equal")
        self.assertIn("body.expiration_seconds: Input should be greater than or equal to 1", str(error))

    def test_an_unknown_instrument_is_a_404(self) -> None:
        with self.assertRaises(HttpError) as caught:
            self.user().rest.instrument("NOPE-PERP")
        self.assertEqual(caught.exception.status, 404)

    def test_calls_before_login_fail_without_asking_the_server(self) -> None:
        with self.assertRaises(PerpsimError):
            RestClient(self.srv.url).open_orders()

    def test_an_api_key_gives_a_token_that_works_and_a_wrong_secret_a_401(self) -> None:
        client = self.user()
        key = client.rest.create_api_key(f"{client.username}-pw")
        by_key = Client(self.srv.url).login_api_key(key.api_key, key.secret, client.username)
        self.assertEqual(len(by_key.rest.instruments()), 2)
        self.assertEqual(by_key.rest.open_orders(), [])
        with self.assertRaises(HttpError) as caught:
            RestClient(self.srv.url).login_api_key(key.api_key, "wrong", client.username)
        self.assertEqual(caught.exception.status, 401)


def totp(secret_base32: str, at: float) -> str:
    """RFC 6238 (HMAC-SHA1, 30 s, 6 digits), as an authenticator app computes it."""
    digest = hmac.new(base64.b32decode(secret_base32), struct.pack(">Q", int(at // 30)), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return f"{(struct.unpack('>I', digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


class TwoFactor(ServerTest):
    def test_a_user_with_2fa_needs_the_current_totp_code_to_create_an_api_key(self) -> None:
        secret, name = "JBSWY3DPEHPK3PXPJBSWY3DP", f"py-2fa-{time.monotonic_ns()}"
        self.srv.admin.create_user(name, "pw-2fa", "1000", totp_secret=secret)
        client = Client(self.srv.url).login(name, "pw-2fa")
        with self.assertRaises(HttpError) as caught:
            client.rest.create_api_key("pw-2fa")
        self.assertEqual((caught.exception.status, caught.exception.detail), (401, "Two-factor authentication code (totp) required"))
        now = time.time()
        accepted = {totp(secret, now + drift) for drift in (-60, -30, 0, 30, 60)}  # the server allows a step either side
        wrong = next(code for code in ("000000", "111111", "222222", "333333", "444444", "555555") if code not in accepted)
        with self.assertRaises(HttpError) as caught:
            client.rest.create_api_key("pw-2fa", totp=wrong)
        self.assertEqual(caught.exception.detail, "Invalid two-factor authentication code (totp)")
        key = client.rest.create_api_key("pw-2fa", totp=totp(secret, time.time()))
        self.assertEqual(len(Client(self.srv.url).login_api_key(key.api_key, key.secret, name).rest.instruments()), 2)


class Orders(ServerTest):
    def test_an_order_with_bad_fields_is_a_422_listing_every_failing_field(self) -> None:
        rest = self.user().rest
        with self.assertRaises(ValidationError) as caught:
            rest.base.call("POST", "/orders/insert_order", {
                "username": rest.username, "symbol": BTC, "price": "5e4", "quantity": "x",
                "side": "B", "time_in_force": "GTD", "post_only": False,
            }, rest.token)
        self.assertEqual(caught.exception.fields(), ["body.price", "body.quantity", "body.time_in_force"])
        self.assertEqual([i["type"] for i in caught.exception.issues], ["string_pattern_mismatch", "int_parsing", "enum"])

    def test_insert_lists_cancels_and_cancels_all(self) -> None:
        rest = self.user().rest
        first = rest.insert_order(BTC, "B", 2, Decimal("49000"), "GTC", post_only=True)
        second = rest.insert_order(BTC, "S", 1, "51000.5")
        orders = {o.order_id: o for o in rest.open_orders()}
        self.assertEqual(set(orders), {first, second})
        self.assertEqual((orders[first].price, orders[first].quantity, orders[first].state), (Decimal("49000"), 2, "NEW"))
        self.assertEqual(orders[second].price, Decimal("51000.5"))
        rest.cancel_order(first)
        self.assertEqual([o.order_id for o in rest.open_orders()], [second])
        third = rest.insert_order(ETH, "B", 3, "2990.25")
        result = rest.cancel_all()
        self.assertEqual(sorted(result.successful), sorted([second, third]))
        self.assertEqual(result.failed, [])
        self.assertEqual(rest.open_orders(), [])

    def test_a_rejected_order_still_gets_an_id_and_never_rests(self) -> None:
        rest = self.user().rest
        order_id = rest.insert_order(BTC, "B", 1, "49000.25")  # off the 0.5 tick grid: a j feed, not an error
        self.assertTrue(order_id.startswith("O-"))
        self.assertEqual(rest.open_orders(), [])

    def test_prices_are_sent_as_exact_decimal_text_and_floats_are_refused(self) -> None:
        self.assertEqual(price_text(Decimal("5E+4")), "50000")
        self.assertEqual(price_text(Decimal("0.10")), "0.10")
        self.assertEqual(price_text(49_990), "49990")
        with self.assertRaises(TypeError):
            price_text(49_990.5)  # type: ignore[arg-type]


class MarketHistoryAndRisk(ServerTest):
    def test_a_trade_shows_in_both_risk_snapshots_marks_candles_and_funding(self) -> None:
        maker, taker = self.user("mk").rest, self.user("tk").rest
        start = self.srv.admin.now_ns()
        maker.insert_order(BTC, "S", 3, "50010")
        taker.insert_order(BTC, "B", 2, "50010", "IOC")

        snapshot = taker.risk_snapshot()
        assert snapshot is not None
        position = snapshot.position(BTC)
        assert position is not None
        self.assertEqual((position.net_quantity, position.buy_vwap), (Decimal(2), Decimal("50010")))
        api = maker.api_risk_snapshot()
        self.assertEqual(api.per_symbol[BTC].net_quantity, Decimal(-2))
        self.assertEqual(api.per_symbol[BTC].open_orders, 1)
        self.assertEqual(api.balance_usd, Decimal("1000000"))

        self.srv.admin.advance(8 * 3600)  # a funding interval: marks every minute, one funding record
        end = self.srv.admin.now_ns()
        marks = maker.mtm_prices(BTC, start, end)
        self.assertGreaterEqual(len(marks), 8 * 60)
        self.assertTrue(all(start <= m.ts_ns <= end for m in marks))
        funding = maker.funding_rates(BTC, start, end)
        self.assertGreaterEqual(len(funding), 1)
        self.assertEqual(funding[-1].funding_amount, funding[-1].settlement_price - funding[-1].benchmark_price)
        candles = maker.candles(BTC, "1m", start, end)
        self.assertEqual((candles.market, candles.interval), (BTC, "1m"))
        self.assertGreaterEqual(sum(c.volume for c in candles.candles), 2)
        self.assertIn(Decimal("50010"), [c.close for c in candles.candles])

    def test_an_unknown_candle_interval_is_a_422_on_that_field(self) -> None:
        rest = self.user().rest
        with self.assertRaises(ValidationError) as caught:
            rest.candles(BTC, "7m", "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")
        self.assertEqual(caught.exception.fields(), ["body.interval"])


if __name__ == "__main__":
    unittest.main()

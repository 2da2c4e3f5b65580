"""GET /wallet/transfers/: a player reads their own wallet's history, and nothing of anyone else's."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger.models import AccountKind
from ledger.services import accounts, postings
from tests.clients import api_client
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user

pytestmark = pytest.mark.django_db

URL = "/api/v1/wallet/transfers/"


@pytest.fixture
def history(player: Any) -> dict[str, Any]:
    """ann: funded 1000, buys in 300 at table 3, cashes out 180 after losing 120 to bob's stack."""
    wallet = funded_wallet(player, 1_000)
    bob = make_user("bob")
    funded_wallet(bob, 500)
    stack = accounts.open_account(
        kind=AccountKind.SEAT_STACK, chip_type="site", reference="table:3:seat:0", user=player
    )
    bob_stack = accounts.open_account(
        kind=AccountKind.SEAT_STACK, chip_type="site", reference="table:3:seat:1", user=bob
    )
    postings.move_chips(
        source=wallet, destination=stack, amount=300, kind="buy_in", idempotency_key="sit:ann", table_id=3
    )
    postings.move_chips(
        source=accounts.get_wallet(user=bob),
        destination=bob_stack,
        amount=200,
        kind="buy_in",
        idempotency_key="sit:bob",
        table_id=3,
    )
    postings.move_chips(
        source=stack,
        destination=bob_stack,
        amount=120,
        kind="settlement",
        idempotency_key="round:7:settle",
        table_id=3,
        round_id=7,
        reason="round 1 of table 3",
    )
    postings.move_chips(
        source=stack, destination=wallet, amount=180, kind="cash_out", idempotency_key="out:ann", table_id=3
    )
    return {"wallet": wallet, "bob": bob}


def _client(user: Any) -> APIClient:
    return api_client(user)


def test_a_player_reads_their_wallet_newest_first_with_running_balances(
    player_client: APIClient, history: dict[str, Any]
) -> None:
    response = player_client.get(URL)
    assert response.status_code == 200, response.content
    rows = response.json()["results"]
    assert [(r["kind"], r["amount"], r["balance_after"]) for r in rows] == [
        ("cash_out", 180, 880),
        ("buy_in", -300, 700),
        ("adjustment", 1000, 1000),
    ]
    assert rows[0]["table"] == 3 and rows[0]["round"] is None and rows[0]["tournament"] is None
    assert set(rows[0]) == {
        "id",
        "transfer",
        "kind",
        "reason",
        "amount",
        "balance_after",
        "table",
        "round",
        "tournament",
        "created_at",
    }
    # the settlement moved chips between seat stacks, not the wallet: it is in the round's results instead
    assert "settlement" not in {r["kind"] for r in rows}
    assert player_client.get("/api/v1/wallet/").json()["balance"] == rows[0]["balance_after"]
    assert_reconciled()


def test_each_player_sees_only_their_own_wallet(history: dict[str, Any], staff: Any) -> None:
    bob_rows = _client(history["bob"]).get(URL).json()["results"]
    assert [(r["kind"], r["amount"]) for r in bob_rows] == [("buy_in", -200), ("adjustment", 500)]
    # staff are players here too: their own (empty) wallet, not the ledger
    assert _client(staff).get(URL).json()["results"] == []
    # query parameters select nothing of anyone else's
    assert (
        _client(history["bob"]).get(URL, {"player": "ann", "account": history["wallet"].pk}).json()["results"]
        == bob_rows
    )


def test_the_history_is_cursor_paginated(player_client: APIClient, history: dict[str, Any]) -> None:
    first = player_client.get(URL, {"page_size": 2}).json()
    assert [r["kind"] for r in first["results"]] == ["cash_out", "buy_in"]
    assert first["next"] is not None
    second = player_client.get(first["next"]).json()
    assert [r["kind"] for r in second["results"]] == ["adjustment"]
    assert second["next"] is None


def test_anonymous_callers_are_refused(anon_client: APIClient) -> None:
    response = anon_client.get(URL)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "auth.not_authenticated"


def test_a_junk_cursor_is_a_400_envelope_not_a_500(player_client: APIClient, history: dict[str, Any]) -> None:
    response = player_client.get(URL, {"cursor": "junk"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "request.invalid_parameter"

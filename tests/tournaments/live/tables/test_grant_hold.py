"""The house grant's play-through (docs/operations.md "The house grant"): granted chips go to a private table
only once the player has played the policy's rounds at public ring tables since the grant, against enough
different players; chips beyond the held ones go anywhere. Every refusal is 422 `table.grant_held` and moves
nothing."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import services as account_services
from ledger.selectors import wallet_balance
from ledger.services import grants
from tests.clients import api_client
from tests.factories import ADULT_BIRTH, PlayerFactory, TableFactory, fund
from tests.integrity.rounds import record_round
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Seat
from tournaments.live.tables import grant_hold
from tournaments.live.tables import services as tables

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-secret-9"


def _newcomer(name: str) -> Any:
    return account_services.register_user(username=name, password=PASSWORD, date_of_birth=ADULT_BIRTH)


def _play_public_rounds(player: Any, opponents: list[Any], rounds: int) -> None:
    """`rounds` rounds at a public table of `player` and `opponents` (no chips moved), then everyone leaves."""
    table = TableFactory.create(seats=len(opponents) + 1)
    for user in (player, *opponents):
        tables.sit(user=user, table_id=table.pk, buy_in=100)
    for _ in range(rounds):
        record_round(table.pk)
    for user in (player, *opponents):
        tables.leave(user=user, table_id=table.pk)


def _join(user: Any, table: Any, buy_in: int) -> Any:
    return api_client(user).post("/api/v1/tables/join/", {"code": table.code, "buy_in": buy_in})


def test_a_newcomer_cannot_take_the_welcome_chips_to_a_private_table() -> None:
    grants.configure(enabled=True, welcome_chips=1_000, daily_floor=0, play_through_rounds=3)
    master = PlayerFactory.create(username="master", chips=1_000)
    private = TableFactory.create(private=True, creator=master, seats=2, pcr=1_000, max_buy_in=1_000)
    farm = _newcomer("farm1")
    refused = _join(farm, private, 1_000)
    assert refused.status_code == 422, refused.content
    error = refused.json()["error"]
    assert error["code"] == "table.grant_held"
    assert error["details"] == {"held": 1_000, "free": 0, "rounds_to_play": 3, "opponents_to_meet": 3}
    assert not Seat.objects.filter(table=private).exists()
    assert wallet_balance(user=farm) == 1_000
    # The creator's own sit by id is held the same way, and so is a stake of one chip.
    assert api_client(farm).post(f"/api/v1/tables/{private.pk}/sit/", {"buy_in": 1}).status_code == 404
    assert _join(farm, private, 1).json()["error"]["code"] == "table.grant_held"
    # A public table takes them.
    public = TableFactory.create(seats=2, max_buy_in=1_000)
    assert api_client(farm).post(f"/api/v1/tables/{public.pk}/sit/", {"buy_in": 1_000}).status_code == 200
    assert_reconciled()


def test_rounds_at_public_tables_against_enough_players_release_the_grant() -> None:
    grants.configure(enabled=True, welcome_chips=1_000, play_through_rounds=4, play_through_opponents=2)
    newcomer = _newcomer("newbie")
    private = TableFactory.create(private=True, seats=2, max_buy_in=1_000)
    ann, bob = PlayerFactory.create(username="ann"), PlayerFactory.create(username="bob")
    # Heads-up with one opponent: rounds enough, but one opponent only.
    _play_public_rounds(newcomer, [ann], 4)
    hold = grant_hold.hold_of(user=newcomer)
    assert (hold.held, hold.rounds_to_play, hold.opponents_to_meet) == (1_000, 0, 1)
    assert _join(newcomer, private, 500).json()["error"]["code"] == "table.grant_held"
    # Rounds at a private table do not count.
    own = TableFactory.create(private=True, creator=ann, seats=2)
    fund(newcomer, 100)
    tables.sit(user=ann, table_id=own.pk, buy_in=100)
    tables.join(user=newcomer, code=own.code or "", buy_in=100)
    for _ in range(5):
        record_round(own.pk)
    assert grant_hold.hold_of(user=newcomer).opponents_to_meet == 1
    # One more public round against a second player: played through.
    _play_public_rounds(newcomer, [bob], 1)
    assert grant_hold.hold_of(user=newcomer).held == 0
    assert _join(newcomer, private, 1_000).status_code == 200
    assert_reconciled()


def test_only_chips_beyond_the_held_ones_go_to_a_private_table_top_ups_included() -> None:
    grants.configure(enabled=True, welcome_chips=1_000)
    player = _newcomer("winner")
    fund(player, 300)  # chips of its own (won, or an admin's adjustment): not held
    private = TableFactory.create(private=True, seats=2, max_buy_in=2_000)
    assert _join(player, private, 301).json()["error"]["details"]["free"] == 300
    assert _join(player, private, 200).status_code == 200
    top_up = api_client(player).post(f"/api/v1/tables/{private.pk}/sit/", {"buy_in": 101})
    assert top_up.status_code == 422 and top_up.json()["error"]["details"]["free"] == 100
    assert api_client(player).post(f"/api/v1/tables/{private.pk}/sit/", {"buy_in": 100}).status_code == 200
    assert wallet_balance(user=player) == 1_000
    assert_reconciled()


def test_a_daily_top_up_is_held_again_and_no_play_through_means_no_hold() -> None:
    grants.configure(
        enabled=True, welcome_chips=0, daily_floor=500, play_through_rounds=1, play_through_opponents=1
    )
    player = PlayerFactory.create(username="regular", chips=100)
    _play_public_rounds(player, [PlayerFactory.create(username="ann")], 1)
    grants.claim_daily_top_up(user=player)
    private = TableFactory.create(private=True, seats=2)
    assert _join(player, private, 500).json()["error"]["details"] == {
        "held": 400,
        "free": 100,
        "rounds_to_play": 1,
        "opponents_to_meet": 1,
    }
    grants.configure(enabled=True, welcome_chips=0, daily_floor=500, play_through_rounds=0)
    assert _join(player, private, 500).status_code == 200
    assert_reconciled()

"""The dealer at a ring table (docs/rules.md "Game"): the first dealer is drawn at random among the seated
players, then the deal passes to the next occupied seat clockwise; the engine's `next_dealer` is the one
rule."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

import pytest

from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import play_out_by_clock
from tournaments.engine import deal
from tournaments.live.models import Game, GameEvent, Round
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables

pytestmark = pytest.mark.django_db


def _seat(table: Any, players: Sequence[Any]) -> Game:
    for user in players:
        tables.sit(user=user, table_id=table.pk, buy_in=500)
    return Game.objects.get(table=table)


def test_the_first_dealer_is_the_seat_the_csprng_draws(
    make_table: Any, make_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[int] = []

    def randbelow(n: int) -> int:
        drawn.append(n)
        return n - 1  # the last of the seated

    monkeypatch.setattr(secrets, "randbelow", randbelow)  # the draw of `deal.draw_first_dealer`
    game = _seat(make_table(seats=4), [make_player("ann"), make_player("bob"), make_player("cid")])
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()
    round_ = Round.objects.get(game=game, number=1)
    assert drawn == [3]  # one draw among the three seated
    assert round_.dealer == 2 and game.dealer_seat == 2 and round_.players == ["ann", "bob", "cid"]
    started = GameEvent.objects.get(game=game, kind="round_started")
    assert started.public["dealer"] == "cid"
    # The player on the dealer's left starts.
    assert game.turn_player == "ann"


def test_first_dealers_differ_from_table_to_table(make_table: Any, make_player: Any) -> None:
    """Seat 0 no longer always deals first: over 24 tables of two, both seats deal first (all on one seat by
    chance: 2 in 2**24)."""
    dealers = set()
    for t in range(24):
        game = _seat(make_table(), [make_player(f"a{t}"), make_player(f"b{t}")])
        assert round_start.start_round(game_id=game.pk) is not None
        dealers.add(Round.objects.get(game=game, number=1).dealer)
    assert dealers == {0, 1}


def test_the_deal_passes_clockwise_to_the_next_occupied_seat(
    make_table: Any, make_player: Any, client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deal, "draw_first_dealer", lambda seats: seats[1])  # seat 1 deals first
    table = make_table(seats=4, options={"max_timeouts_per_round": 100})
    ann, bob, cid, dan = (make_player(n) for n in ("ann", "bob", "cid", "dan"))
    game = _seat(table, [ann, bob, cid, dan])
    assert round_start.start_round(game_id=game.pk) is not None
    assert Game.objects.get(pk=game.pk).dealer_seat == 1
    # cid (seat 2, the next dealer) leaves during the round: the deal skips the empty seat.
    assert client_for(cid).post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    play_out_by_clock(game)
    assert round_start.start_round(game_id=game.pk) is not None
    second = Round.objects.get(game=game, number=2)
    assert second.players == ["ann", "bob", "dan"] and second.players[second.dealer] == "dan"
    assert Game.objects.get(pk=game.pk).dealer_seat == 3
    # ... and wraps around past the last seat.
    play_out_by_clock(game)
    assert round_start.start_round(game_id=game.pk) is not None
    third = Round.objects.get(game=game, number=3)
    assert third.players[third.dealer] == "ann" and Game.objects.get(pk=game.pk).dealer_seat == 0
    assert_reconciled()

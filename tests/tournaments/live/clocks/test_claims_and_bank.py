"""The "Rummy!" claim window closes at its deadline (close_claims clock); the time bank pays overtime."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.engine.stacking import stacked_round
from tournaments import engine
from tournaments.engine import Ruleset, state_to_dict
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameEvent, Round, Seat
from tournaments.live.moves import pipeline as moves
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def armed(monkeypatch: Any) -> list[tuple[str, list[Any], float]]:
    calls: list[tuple[str, list[Any], float]] = []
    monkeypatch.setattr(
        dispatch,
        "enqueue",
        lambda name, args, countdown, queue=None: _record(calls, name, args, countdown),
    )
    return calls


def _record(calls: list[tuple[str, list[Any], float]], name: str, args: Any, countdown: float) -> None:
    """Live play's own tasks; other apps' tasks sent by live play's change hooks (the notifications' "your
    turn", tests/notifications) are not the clocks'."""
    if name.startswith("tournaments."):
        calls.append((name.removeprefix("tournaments."), list(args), countdown))


def _dealt(make_table: Any, make_player: Any, client_for: Any, options: dict[str, Any]) -> Game:
    table = make_table(options=options)
    for name in ("ann", "bob"):
        client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300})
    game = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()
    return game


def _user(game: Game, name: str) -> Any:
    return Seat.objects.get(table=game.table, player__username=name).player


def _move(game: Game, name: str, move: dict[str, Any]) -> dict[str, Any]:
    version = Game.objects.get(pk=game.pk).version
    return moves.submit_move(
        user=_user(game, name), game_id=game.pk, move=move, expected_version=version, idempotency_key=None
    )


def test_claim_window_opens_and_closes_at_its_deadline(
    make_table: Any, make_player: Any, client_for: Any, armed: Any
) -> None:
    game = _dealt(make_table, make_player, client_for, {"rummy_calls": True, "rummy_call_seconds": 4})
    round_ = Round.objects.get(game=game)
    rules = Ruleset.preset("rummy500", rummy_calls=True, rummy_call_seconds=4)
    mover = round_.players[(round_.dealer + 1) % 2]
    hands = [["7H", "8H", "9H", "TH"] if p == mover else ["2C", "5D", "9S", "KC"] for p in round_.players]
    state = stacked_round(rules, hands, players=round_.players, dealer=round_.dealer)
    Game.objects.filter(pk=game.pk).update(state=state_to_dict(state))
    _move(game, mover, {"type": "draw", "source": "stock"})
    _move(game, mover, {"type": "meld", "cards": ["7H", "8H", "9H"]})
    _move(game, mover, {"type": "discard", "card": "TH"})
    game.refresh_from_db()
    assert (engine.state_from_dict(game.state or {})).phase == "claims"
    assert game.turn_deadline is None and game.claims_deadline is not None
    assert armed[-1] == ("close_claims", [game.pk, game.version], 4)
    # early: re-armed; stale: nothing
    armed.clear()
    assert clock_runs.run_close_claims(game_id=game.pk, version=game.version) is False
    assert armed and armed[0][0] == "close_claims"
    assert clock_runs.run_close_claims(game_id=game.pk, version=game.version - 1) is False
    Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now() - timedelta(seconds=1))
    assert clock_runs.run_close_claims(game_id=game.pk, version=game.version) is True
    closed = Game.objects.get(pk=game.pk)
    assert closed.version == game.version + 1 and closed.claims_deadline is None
    assert (engine.state_from_dict(closed.state or {})).phase == "draw"
    assert GameEvent.objects.get(game=game, version=closed.version).kind == "claims_closed"
    assert armed[-1][0] == "turn_clock" and armed[-1][1] == [game.pk, closed.version]


def test_overtime_is_paid_from_the_time_bank(
    make_table: Any, make_player: Any, client_for: Any, armed: Any
) -> None:
    game = _dealt(make_table, make_player, client_for, {"turn_seconds": 7, "time_bank_seconds": 5})
    mover = game.turn_player
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=10))
    _move(game, mover, {"type": "draw", "source": "stock"})
    state = engine.state_from_dict(Game.objects.get(pk=game.pk).state or {})
    discard = next(m for m in engine.legal_moves(state, mover) if m["type"] == "discard")
    _move(game, mover, discard)
    bank = Round.objects.get(game=game).time_bank
    assert bank[mover] == pytest.approx(2, abs=0.5)
    other = next(p for p in bank if p != mover)
    assert bank[other] == 5
    game.refresh_from_db()
    assert game.turn_player == other
    assert game.turn_deadline is not None and game.turn_started_at is not None
    assert (game.turn_deadline - game.turn_started_at).total_seconds() == pytest.approx(12)


def test_the_game_view_shows_each_players_time_bank_so_a_client_can_count_the_clock_down(
    make_table: Any, make_player: Any, client_for: Any, armed: Any
) -> None:
    game = _dealt(make_table, make_player, client_for, {"turn_seconds": 7, "time_bank_seconds": 5})
    mover = game.turn_player
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=10))
    _move(game, mover, {"type": "draw", "source": "stock"})
    state = engine.state_from_dict(Game.objects.get(pk=game.pk).state or {})
    _move(game, mover, next(m for m in engine.legal_moves(state, mover) if m["type"] == "discard"))
    other = next(name for name in ("ann", "bob") if name != mover)
    view = client_for(_user(game, other)).get(f"/api/v1/games/{game.pk}/").json()
    banks = {row["username"]: row["time_bank"] for row in view["players"]}
    assert banks[mover] == pytest.approx(2, abs=0.5) and banks[other] == 5
    # the turn player's turn clock ends `time_bank` seconds before the turn's deadline
    game.refresh_from_db()
    assert game.turn_started_at is not None and view["turn"]["player"] == other
    deadline = datetime.fromisoformat(view["turn"]["deadline"])
    assert (
        deadline - timedelta(seconds=banks[other]) - game.turn_started_at
    ).total_seconds() == pytest.approx(7)

"""Rounds played through the real services by bots, with the view every player (and a staff member) was shown
after each change recorded, for the replay tests (tests/tournaments/live/rounds/test_replays.py)."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from tests.factories import TableFactory
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameStatus, Round, Seat
from tournaments.live.moves import pipeline as moves
from tournaments.live.rounds import start as round_start
from tournaments.live.storage import selectors
from tournaments.live.tables import services as tables

# Turns long enough that nothing times out unless a test says so; no seat goes absent.
CLOCKS = {"turn_seconds": 30, "time_bank_seconds": 0, "max_timeouts": 20, "max_timeouts_per_round": 100}
# The game view's own fields around the engine's (selectors.game_view): what a replay step's view has not.
LIVE_ONLY = {"id", "table", "status", "next_round_at", "waiting_players", "legal_moves"}
# Fields both have, with another meaning live: the game's version (the replay's counts the round's steps),
# the turn (live: with its deadline), the players (live: with chips, status and scores).
COMPARED_APART = {"version", "turn", "players"}
_names = itertools.count()


@dataclass
class Played:
    game: Game
    round: Round
    users: dict[str, Any]
    staff: Any
    start: int  # the game's version at the deal (its `round_started` event)
    # the game's version -> viewer (a username; "" for the staff member) -> the game view then
    live: dict[int, dict[str, dict[str, Any]]] = field(default_factory=dict)
    left: set[str] = field(default_factory=set)  # who left the table during the round


def unique_names(count: int) -> list[str]:
    """Usernames not used before in this test process (hypothesis runs several examples in one test)."""
    return [f"rp{next(_names)}" for _ in range(count)]


def record(played: Played) -> None:
    """Every player's and the staff member's view of the game now (`GET /games/{id}/`'s body; a player who
    left the table is shown the spectator's view once cashed out)."""
    viewers = {**played.users, "": played.staff}
    for name, user in viewers.items():
        access = selectors.game_access(user=user, game_id=played.game.pk, with_history=True)
        view = json.loads(json.dumps(selectors.game_view(access=access)))
        played.live.setdefault(view["version"], {})[name] = view


def deal(
    *,
    preset: str,
    options: dict[str, Any],
    users: dict[str, Any],
    staff: Any,
    admin: Any,
    private: bool = False,
    empty_seat: Any = None,
) -> Played:
    """The round dealt to `users` at a new table; with `empty_seat` (a user) the table's first seat is left
    empty (that user sits and leaves before the deal), so that the seat numbers are not the engine's indexes."""
    seats = len(users) + (1 if empty_seat is not None else 0)
    table = TableFactory.create(
        creator=admin, game=preset, options={**CLOCKS, **options}, seats=seats, private=private
    )
    sitting = [empty_seat, *users.values()] if empty_seat is not None else list(users.values())
    for user in sitting:
        tables.sit(user=user, table_id=table.pk, buy_in=2000, by_code=private)
    if empty_seat is not None:
        tables.leave(user=empty_seat, table_id=table.pk)
    game = Game.objects.get(table=table)
    round_ = round_start.start_round(game_id=game.pk)
    assert round_ is not None
    game.refresh_from_db()
    played = Played(game=game, round=round_, users=users, staff=staff, start=game.version)
    record(played)
    return played


def next_round(played: Played) -> Played:
    """The table's next round dealt, to be played and recorded in turn."""
    round_ = round_start.start_round(game_id=played.game.pk)
    assert round_ is not None
    played.game.refresh_from_db()
    played.round, played.start, played.live = round_, played.game.version, {}
    record(played)
    return played


def play(
    played: Played,
    *,
    rng: random.Random,
    timeouts: float = 0.1,
    closes: float = 0.4,
    greedy: float = 0.9,
    leaver: str | None = None,
) -> Round:
    """Bots play the round to its end: each change a player's move (the greedy or the random bot), now and then
    a turn the server plays at its deadline (`timeouts`) or a claim window closed at its deadline (`closes`);
    `leaver` leaves the table at some point during the round. The views are recorded after every change."""
    game = played.game
    # Early in the round: the deal comes from the CSPRNG, so a later change may come after the round's end.
    leave_at = rng.randrange(1, 5) if leaver is not None else None
    for change in itertools.count():
        assert change < 3000, "the round did not end"
        game.refresh_from_db()
        if game.status != GameStatus.PLAYING:
            break
        if change == leave_at:
            assert leaver is not None
            tables.leave(user=played.users[leaver], table_id=game.table_id)
            played.left.add(leaver)
            game.refresh_from_db()
        state = engine.state_from_dict(game.state or {})
        if state.phase == "claims" and rng.random() < closes:
            Game.objects.filter(pk=game.pk).update(claims_deadline=timezone.now())
            assert clock_runs.run_close_claims(game_id=game.pk, version=game.version)
        elif game.turn_deadline is not None and (rng.random() < timeouts or game.turn_player in played.left):
            Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now())
            assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
        else:
            player = rng.choice(state.may_act)
            choose = engine_bots.greedy_move if rng.random() < greedy else engine_bots.auto_move
            moves.submit_move(
                user=played.users[player],
                game_id=game.pk,
                move=choose(state, player),
                expected_version=game.version,
                idempotency_key=None,
            )
        record(played)
    played.round.refresh_from_db()
    assert played.round.ended_at is not None
    return played.round


def engine_part(view: dict[str, Any]) -> dict[str, Any]:
    """A game view's engine fields as a replay step shows them: the players' username, seat and hand count, and
    the turn's player (`version` is the game's, not comparable)."""
    part = {k: v for k, v in view.items() if k not in LIVE_ONLY | COMPARED_APART}
    part["players"] = [
        {"username": row["username"], "seat": row["seat"], "hand_count": row["hand_count"]}
        for row in view["players"]
    ]
    part["turn"] = (view["turn"] or {}).get("player")
    return part


def step_part(view: dict[str, Any]) -> dict[str, Any]:
    part = {k: v for k, v in view.items() if k not in COMPARED_APART}
    part["players"] = view["players"]
    part["turn"] = view["turn"]["player"]
    return part


def seat_of(played: Played, name: str) -> Seat | None:
    return (
        Seat.objects.filter(table_id=played.game.table_id, player=played.users[name]).order_by("-pk").first()
    )

"""Clocks as services: what is armed after each change, and what a late, early or stale clock does."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tournaments import engine
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus, MoveLog, Round, Seat, SeatStatus
from tournaments.live.moves import pipeline as moves
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def armed(monkeypatch: Any) -> list[tuple[str, list[Any], float]]:
    """Every task the services enqueue (instead of sending it to the broker)."""
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


@pytest.fixture
def dealt(make_table: Any, make_player: Any, client_for: Any, armed: Any) -> Game:
    table = make_table(options={"turn_seconds": 7, "time_bank_seconds": 5, "max_timeouts": 2})
    for name in ("ann", "bob"):
        client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 300})
    game = Game.objects.get(table=table)
    assert armed[-1][0] == "start_round" and armed[-1][1] == [game.pk]
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()
    return game


def test_second_sitter_schedules_the_start_and_start_is_idempotent(dealt: Game, armed: Any) -> None:
    assert [name for name, _, _ in armed].count("start_round") == 1
    assert round_start.start_round(game_id=dealt.pk) is None
    assert Round.objects.filter(game=dealt).count() == 1


def test_deal_arms_the_turn_clock_for_turn_plus_bank(dealt: Game, armed: Any) -> None:
    name, args, countdown = armed[-1]
    assert (
        name == "turn_clock"
        and args == [dealt.pk, dealt.turn_version]
        and dealt.turn_version == dealt.version
    )
    assert countdown == pytest.approx(12, abs=0.5)
    assert dealt.turn_deadline is not None and dealt.turn_started_at is not None
    assert (dealt.turn_deadline - dealt.turn_started_at).total_seconds() == pytest.approx(12)


def test_moves_inside_a_turn_keep_its_clock_and_the_next_turn_arms_a_new_one(dealt: Game, armed: Any) -> None:
    mover = Seat.objects.get(table=dealt.table, player__username=dealt.turn_player).player
    deadline = dealt.turn_deadline
    armed.clear()
    moves.submit_move(
        user=mover,
        game_id=dealt.pk,
        move={"type": "draw", "source": "stock"},
        expected_version=dealt.version,
        idempotency_key=None,
    )
    game = Game.objects.get(pk=dealt.pk)
    assert game.turn_player == mover.username and game.turn_deadline == deadline
    assert game.turn_version == dealt.turn_version and armed == []
    # the clock armed for this turn still fires for it, though the version moved on
    Game.objects.filter(pk=dealt.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=dealt.turn_version) is True
    game.refresh_from_db()
    assert game.turn_player != mover.username and game.turn_version == game.version
    assert armed[-1] == ("turn_clock", [game.pk, game.turn_version], pytest.approx(12, abs=0.5))
    assert MoveLog.objects.filter(player=mover.username, server_played=True).exists()
    assert Seat.objects.get(table=dealt.table, player=mover).timeouts_in_row == 1


def test_stale_clock_does_nothing(dealt: Game) -> None:
    Game.objects.filter(pk=dealt.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=dealt.turn_version - 1) is False
    assert clock_runs.run_turn_clock(game_id=999_999, version=1) is False
    assert Game.objects.get(pk=dealt.pk).version == dealt.version and not MoveLog.objects.exists()


def test_early_clock_rearms_for_the_remaining_time(dealt: Game, armed: Any) -> None:
    armed.clear()
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=dealt.turn_version) is False
    assert armed and armed[0][0] == "turn_clock" and 10 < armed[0][2] <= 12
    assert Game.objects.get(pk=dealt.pk).version == dealt.version and not MoveLog.objects.exists()


def test_sweeper_reenqueues_overdue_clocks(dealt: Game, monkeypatch: Any) -> None:
    from tournaments import tasks

    sent: list[tuple[str, tuple[Any, ...]]] = []
    for name in ("turn_clock", "close_claims", "start_round"):
        task = getattr(tasks, name)
        monkeypatch.setattr(task, "apply_async", lambda args, _n=name, **kw: sent.append((_n, tuple(args))))
    assert clock_runs.sweep_clocks() == 0
    Game.objects.filter(pk=dealt.pk).update(turn_deadline=timezone.now() - timedelta(seconds=60))
    assert clock_runs.sweep_clocks() == 1
    assert sent == [("turn_clock", (dealt.pk, dealt.turn_version))]


def test_the_sweeper_sends_a_practice_tables_clock_to_the_bots_queue(dealt: Game, monkeypatch: Any) -> None:
    """A lost clock of a practice table is re-sent where its table's clocks go (dispatch.queue_for): a real
    table's overdue clock must not wait behind practice, nor a practice one land on the real tables' queue."""
    from django.conf import settings

    from tournaments import tasks
    from tournaments.live.models import Table

    queues: list[str | None] = []
    monkeypatch.setattr(tasks.turn_clock, "apply_async", lambda args, **kw: queues.append(kw.get("queue")))
    Game.objects.filter(pk=dealt.pk).update(turn_deadline=timezone.now() - timedelta(seconds=60))
    assert clock_runs.sweep_clocks() == 1
    Table.objects.filter(pk=dealt.table_id).update(practice=True)
    assert clock_runs.sweep_clocks() == 1
    assert queues == [None, settings.RAMINO_PRACTICE_BOTS_QUEUE]


def test_leaving_on_own_turn_arms_the_clock_at_once(dealt: Game, armed: Any, client_for: Any) -> None:
    mover = Seat.objects.get(table=dealt.table, player__username=dealt.turn_player)
    armed.clear()
    response = client_for(mover.player).post(f"/api/v1/tables/{dealt.table_id}/leave/")
    assert response.status_code == 200
    mover.refresh_from_db()
    assert mover.status == SeatStatus.LEAVING
    assert armed == [("turn_clock", [dealt.pk, dealt.turn_version], 0)]
    game = Game.objects.get(pk=dealt.pk)
    assert game.status == GameStatus.PLAYING and game.turn_deadline is not None
    assert game.turn_deadline <= timezone.now()


def test_move_log_and_events_are_append_only_in_the_database(dealt: Game) -> None:
    from django.db import DatabaseError, transaction

    from tournaments.live.models import GameEvent

    mover = Seat.objects.get(table=dealt.table, player__username=dealt.turn_player).player
    moves.submit_move(
        user=mover,
        game_id=dealt.pk,
        move={"type": "draw", "source": "stock"},
        expected_version=dealt.version,
        idempotency_key=None,
    )
    for queryset, change in (
        (MoveLog.objects.all(), {"server_played": True}),
        (GameEvent.objects.all(), {"kind": "forged"}),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            queryset.update(**change)
        with pytest.raises(DatabaseError), transaction.atomic():
            queryset.delete()
    assert MoveLog.objects.filter(server_played=False).count() == 1


def test_a_move_passing_the_turn_relies_on_the_clock_already_due_and_it_rearms(
    dealt: Game, armed: Any
) -> None:
    mover = Seat.objects.get(table=dealt.table, player__username=dealt.turn_player).player
    assert dealt.clock_due_at == dealt.turn_deadline
    armed.clear()
    version = dealt.version
    for move in ({"type": "draw", "source": "stock"}, None):
        game = Game.objects.get(pk=dealt.pk)
        if move is None:
            hand = engine.player_view(engine.state_from_dict(game.state or {}), mover.username)["hand"]
            move = {"type": "discard", "card": hand[0]}
        moves.submit_move(
            user=mover, game_id=dealt.pk, move=move, expected_version=version, idempotency_key=None
        )
        version += 1
    game = Game.objects.get(pk=dealt.pk)
    assert game.turn_player != mover.username and game.turn_version == game.version
    # the first turn's message fires before this turn's deadline: no new one was sent
    assert armed == [] and game.clock_due_at == dealt.turn_deadline
    assert game.turn_deadline is not None and dealt.turn_deadline is not None
    assert game.turn_deadline > dealt.turn_deadline
    # when it fires (stale version) it arms the running turn's clock, once
    Game.objects.filter(pk=dealt.pk).update(clock_due_at=timezone.now() - timedelta(seconds=1))
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=dealt.turn_version) is False
    assert armed == [("turn_clock", [game.pk, game.turn_version], pytest.approx(12, abs=0.5))]
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=dealt.turn_version) is False
    assert len(armed) == 1
    again = Game.objects.get(pk=dealt.pk)
    assert again.clock_due_at == game.turn_deadline and again.version == game.version


def _everybody_leaves(dealt: Game, client_for: Any) -> None:
    for seat in Seat.objects.filter(table=dealt.table):
        assert client_for(seat.player).post(f"/api/v1/tables/{dealt.table_id}/leave/").status_code == 200


def test_a_stale_duplicate_of_an_overdue_turn_sends_no_clock(
    dealt: Game, armed: Any, client_for: Any
) -> None:
    """The sweeper's copy of a clock (or a redelivered one) that finds its turn played by the other copy ends
    there: the turn that follows is overdue at once (leaving seats) and already has its own message."""
    _everybody_leaves(dealt, client_for)
    armed.clear()
    # two copies of the running turn's clock: the armed one and the sweeper's
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=dealt.turn_version) is True
    game = Game.objects.get(pk=dealt.pk)
    assert game.turn_deadline is not None and game.turn_deadline <= timezone.now()
    assert armed == [("turn_clock", [game.pk, game.turn_version], pytest.approx(0, abs=0.5))]
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=dealt.turn_version) is False
    assert len(armed) == 1
    assert Game.objects.get(pk=dealt.pk).version == game.version


def test_leaving_seats_play_out_while_the_sweeper_copies_their_clocks(
    dealt: Game, armed: Any, client_for: Any
) -> None:
    """A worker taking the clocks in order while the sweeper sends a copy of the overdue turn's clock after
    every other message (a loaded worker: every sweep finds the deadline passed): the copies die out, the
    queue stays short and the round is played out. Each copy used to send one more clock for the next
    turn, so the queue only grew and the turns came ever more slowly (the table seemed to stop)."""
    _everybody_leaves(dealt, client_for)
    queue = [tuple(args) for name, args, _ in armed if name == "turn_clock"]
    armed.clear()
    runs = played = longest = 0
    while not Round.objects.get(game=dealt).settled:
        assert runs < 600, f"round not settled after {runs} clock messages; {len(queue)} queued"
        if runs % 2:
            game = Game.objects.get(pk=dealt.pk)
            queue.append((game.pk, game.turn_version))  # the sweeper's copy
        game_id, version = queue.pop(0)
        played += clock_runs.run_turn_clock(game_id=game_id, version=version)
        runs += 1
        assert [name for name, _, _ in armed] in ([], ["turn_clock"])
        queue += [tuple(args) for _, args, _ in armed]
        armed.clear()
        longest = max(longest, len(queue))
    # every turn is played by one message; besides it, at most the sweeper's one copy ran
    assert longest <= 3 and runs <= 2 * played + 2
    assert not Seat.objects.filter(table=dealt.table).exclude(status=SeatStatus.LEFT).exists()


def test_a_turn_due_when_the_message_on_its_way_fires_sends_its_own(
    dealt: Game, armed: Any, monkeypatch: Any
) -> None:
    """A message due at the new turn's deadline itself is not relied on: it cannot be told from a copy of the
    turn's own, which does nothing once the turn has one."""
    mover = Seat.objects.get(table=dealt.table, player__username=dealt.turn_player).player
    assert dealt.turn_started_at is not None and dealt.clock_due_at == dealt.turn_deadline
    # the turn passes at the instant the first one started: the next deadline is the message's due time
    monkeypatch.setattr(timezone, "now", lambda: dealt.turn_started_at)
    armed.clear()
    version = dealt.version
    for move in ({"type": "draw", "source": "stock"}, None):
        if move is None:
            state = engine.state_from_dict(Game.objects.get(pk=dealt.pk).state or {})
            move = {"type": "discard", "card": engine.player_view(state, mover.username)["hand"][0]}
        moves.submit_move(
            user=mover, game_id=dealt.pk, move=move, expected_version=version, idempotency_key=None
        )
        version += 1
    game = Game.objects.get(pk=dealt.pk)
    assert game.turn_player != mover.username and game.turn_deadline == dealt.turn_deadline
    assert armed == [("turn_clock", [game.pk, game.turn_version], pytest.approx(12))]
    monkeypatch.setattr(timezone, "now", lambda: dealt.turn_deadline)
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=dealt.turn_version) is False
    assert len(armed) == 1
    assert clock_runs.run_turn_clock(game_id=dealt.pk, version=game.turn_version) is True
    assert Game.objects.get(pk=dealt.pk).turn_player == mover.username

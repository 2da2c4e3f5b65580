"""What the clocks do when they fire: the server plays a turn whose time ran out, closes a claim window, and
the beat sweeper re-sends the clock messages that were lost (the tournaments' own lost messages are their
kinds' sweeps, composed with this one in `tournaments.tasks.sweep_all`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from operations import metrics
from tournaments import engine
from tournaments.engine import RoundState
from tournaments.engine import bots as engine_bots
from tournaments.fair_play import services as fair_play
from tournaments.fair_play.models import AbandonmentKind
from tournaments.live.clocks import reconnect
from tournaments.live.clocks.arming import CLOCK_REUSE_MARGIN, clock_targets
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, GameStatus, Round, Seat, SeatStatus, Table
from tournaments.live.moves.pipeline import play_server_move
from tournaments.live.rounds.advance import settle_state
from tournaments.live.storage.events import add_event
from tournaments.live.storage.locks import current_round, lock_game, seats_by_player
from tournaments.live.tables import policy
from tournaments.live.tables import settings as table_settings

# A turn is auto-played in a loop of single moves; no turn of any game needs more than this.
MAX_AUTO_MOVES_PER_TURN = 60


def _server_play(
    *,
    game: Game,
    round_: Round,
    state: RoundState,
    player: str,
    choose: Callable[[RoundState, str], dict[str, Any]],
) -> tuple[Any, int]:
    """Play `player`'s moves until the turn passes (or a claim window opens, or the round ends). Returns the
    state and how many moves were played."""
    for played in range(MAX_AUTO_MOVES_PER_TURN):
        if state.result is not None or player not in state.may_act:
            return state, played
        if state.phase == "claims":
            return state, played
        move = engine.parse_move(choose(state, player))
        state = play_server_move(game=game, round_=round_, state=state, player=player, move=move)
    raise RuntimeError(f"auto play of {player} did not end the turn in {MAX_AUTO_MOVES_PER_TURN} moves")


def run_turn_clock(*, game_id: int, version: int) -> bool:
    """The turn clock fired: if the turn armed at `version` is still running and its deadline has passed,
    the server plays it. True when it played."""
    with transaction.atomic():
        locked = lock_game(game_id)
        if locked is None:
            return False
        table, game = locked
        now = timezone.now()
        if game.status != GameStatus.PLAYING or game.turn_deadline is None:
            return False
        if game.turn_version != version:
            due = game.clock_due_at
            # Only the message later turns relied on (see `clocks.arm_clocks`) fires before the running turn's
            # deadline: it arms that turn's clock. Once armed (here or by `arm_clocks`) `clock_due_at` is
            # the deadline, so any other stale copy (the sweeper's, a redelivery) ends here; else each copy
            # would arm one more for an overdue turn (leaving seats), and the queue would only grow.
            if due is not None and due <= now + CLOCK_REUSE_MARGIN and due < game.turn_deadline:
                game.clock_due_at = game.turn_deadline
                game.save(update_fields=["clock_due_at", "updated_at"])
                remaining = (game.turn_deadline - now).total_seconds()
                dispatch.enqueue(
                    dispatch.TURN_CLOCK,
                    [game.pk, game.turn_version],
                    max(0.0, remaining),
                    queue=dispatch.queue_for(table),
                )
            return False
        remaining = (game.turn_deadline - now).total_seconds()
        if remaining > 0.05:
            dispatch.enqueue(
                dispatch.TURN_CLOCK, [game.pk, game.turn_version], remaining, queue=dispatch.queue_for(table)
            )
            return False
        round_ = current_round(game)
        assert round_ is not None and game.state is not None
        state = engine.state_from_dict(game.state)
        if state.phase == "claims":
            return False
        targets = clock_targets(state)
        seats = seats_by_player(table, targets)
        clocks = table_settings.clocks_for(table.options)
        if reconnect.wait_for_reconnect(
            game=game, table=table, round_=round_, targets=targets, seats=seats, clocks=clocks, now=now
        ):
            return False
        for player in targets:
            state, played = _server_play(
                game=game, round_=round_, state=state, player=player, choose=engine_bots.auto_move
            )
            transaction.on_commit(functools.partial(metrics.turn_timed_out, server_moves=played))
            seat = seats.get(player)
            if seat is not None and seat.status == SeatStatus.ACTIVE:
                seat.timeouts_in_row += 1
                seat.timeouts_in_round += 1
                if (
                    seat.timeouts_in_row >= clocks.max_timeouts
                    or seat.timeouts_in_round >= clocks.max_timeouts_per_round
                ):
                    seat.status = SeatStatus.ABSENT
                    _record_absent(table=table, seat=seat, now=now)
                seat.save(update_fields=["timeouts_in_row", "timeouts_in_round", "status"])
        if game.turn_player in round_.time_bank:
            bank = dict(round_.time_bank)
            bank[game.turn_player] = 0
            round_.time_bank = bank
            round_.save(update_fields=["time_bank"])
        game.turn_player = ""
        game.turn_started_at = None
        # Whatever message was relied on may be this one: the next turn sends its own.
        game.clock_due_at = None
        settle_state(game=game, table=table, round_=round_, state=state, now=now)
        return True


def run_close_claims(*, game_id: int, version: int) -> bool:
    """The "Rummy!" claim window's deadline: close it if the game is still where the window opened."""
    with transaction.atomic():
        locked = lock_game(game_id)
        if locked is None:
            return False
        table, game = locked
        if game.version != version or game.status != GameStatus.PLAYING or game.claims_deadline is None:
            return False
        now = timezone.now()
        remaining = (game.claims_deadline - now).total_seconds()
        if remaining > 0.05:
            dispatch.enqueue(
                dispatch.CLOSE_CLAIMS, [game.pk, game.version], remaining, queue=dispatch.queue_for(table)
            )
            return False
        round_ = current_round(game)
        assert round_ is not None and game.state is not None
        state = engine.close_claims(engine.state_from_dict(game.state))
        add_event(game, round_, "claims_closed", {"round": round_.number, "phase": state.phase})
        settle_state(game=game, table=table, round_=round_, state=state, now=now)
        return True


def sweep_clocks(*, grace_seconds: float | None = None) -> int:
    """Re-enqueue every clock whose deadline passed long ago (its message was lost). Returns how many."""
    if grace_seconds is None:
        grace_seconds = float(settings.RAMINO_CLOCK_SWEEP_GRACE_SECONDS)
    now = timezone.now()
    late = now - timedelta(seconds=grace_seconds)
    count = 0
    # Each message to its table's queue (a practice table's to the bots' own: dispatch.queue_for).
    for game_id, version, practice in Game.objects.filter(
        status=GameStatus.PLAYING, turn_deadline__lt=late
    ).values_list("pk", "turn_version", "table__practice"):
        dispatch.send(
            dispatch.TURN_CLOCK, (game_id, version), queue=dispatch.queue_for_kind(practice=practice)
        )
        count += 1
    for game_id, version, practice in Game.objects.filter(
        status=GameStatus.PLAYING, claims_deadline__lt=late
    ).values_list("pk", "version", "table__practice"):
        dispatch.send(
            dispatch.CLOSE_CLAIMS, (game_id, version), queue=dispatch.queue_for_kind(practice=practice)
        )
        count += 1
    for game_id, practice in Game.objects.filter(
        status=GameStatus.WAITING, next_round_at__lt=late
    ).values_list("pk", "table__practice"):
        dispatch.send(dispatch.START_ROUND, (game_id,), queue=dispatch.queue_for_kind(practice=practice))
        count += 1
    return count


def _record_absent(*, table: Table, seat: Seat, now: datetime) -> None:
    """A seat just marked absent is an abandonment (docs/rules.md "Fair play"), but never at a practice table."""
    kind = policy.table_kind(table)
    if kind == policy.PRACTICE_TABLES:
        return
    fair_play.record_abandonment(
        player_id=seat.player_id,
        kind=AbandonmentKind.RING_ABSENT if kind == policy.RING_TABLES else AbandonmentKind.TOURNAMENT_ABSENT,
        table_id=table.pk,
        tournament_id=table.tournament_id,
        at=now,
    )

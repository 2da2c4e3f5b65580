"""Arming a game's clocks: the turn clock (with the time bank) and the "Rummy!" claim window.

A clock message carries (game id, version) and does nothing when the game has moved on (`clock_runs`), so
running one twice or late is harmless.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from django.utils import timezone

from tournaments.engine import RoundState
from tournaments.live.messaging import dispatch
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Round, Seat, SeatStatus, Table
from tournaments.live.tables import settings as table_settings

# A clock message due sooner than this is not relied on for a later turn (it may be firing right now).
CLOCK_REUSE_MARGIN = timedelta(seconds=1)


def clock_targets(state: RoundState) -> list[str]:
    """Whom the turn clock plays for when it fires: the turn's player, or everyone in a deal phase."""
    may = state.may_act
    if state.phase == "deal":
        return list(may)
    current = state.to_act
    if current in may:
        return [str(current)]
    return list(may[:1])


def charge_time_bank(*, game: Game, table: Table, round_: Round, now: datetime) -> None:
    """The player whose turn just ended pays any time beyond `turn_seconds` from the bank."""
    if not game.turn_player or game.turn_started_at is None:
        return
    clocks = table_settings.clocks_for(table.options)
    over = (now - game.turn_started_at).total_seconds() - clocks.turn_seconds
    if over > 0 and game.turn_player in round_.time_bank:
        bank = dict(round_.time_bank)
        bank[game.turn_player] = max(0.0, float(bank[game.turn_player]) - over)
        round_.time_bank = bank
        round_.save(update_fields=["time_bank"])


def arm_clocks(
    *,
    game: Game,
    table: Table,
    round_: Round,
    state: RoundState,
    now: datetime,
    seat_statuses: Mapping[str, str] | None = None,
    reuse_clock: bool = False,
) -> None:
    """`reuse_clock`: a new turn sends no clock message when the one already on its way fires before the
    turn's deadline (`run_turn_clock` re-arms from it); a message per turn costs a move about as much CPU
    as the rest of its work."""
    clocks = table_settings.clocks_for(table.options)
    if state.phase == "claims":
        charge_time_bank(game=game, table=table, round_=round_, now=now)
        game.turn_player = ""
        game.turn_started_at = None
        game.turn_deadline = None
        window = claim_seconds(state)
        game.claims_deadline = now + timedelta(seconds=window)
        dispatch.enqueue(
            dispatch.CLOSE_CLAIMS, [game.pk, game.version], window, queue=dispatch.queue_for(table)
        )
        return
    game.claims_deadline = None
    targets = clock_targets(state)
    if not targets:
        return
    player = targets[0]
    new_turn = player != game.turn_player or game.turn_started_at is None or game.turn_deadline is None
    if new_turn:
        charge_time_bank(game=game, table=table, round_=round_, now=now)
        game.turn_player = player
        game.turn_started_at = now
        game.turn_version = game.version
        bank = float(round_.time_bank.get(player, clocks.time_bank_seconds))
        game.turn_deadline = now + timedelta(seconds=clocks.turn_seconds + bank)
    assert game.turn_deadline is not None
    # (A seat that turns `leaving` mid-turn is re-armed by leave() itself: only a new turn needs the look-up.)
    seat_status: str | None = None
    if new_turn and seat_statuses is not None:
        seat_status = seat_statuses.get(player)
    elif new_turn:
        seat_status = (
            Seat.objects.filter(table=table, player__username=player, status__in=SEATED_STATUSES)
            .values_list("status", flat=True)
            .first()
        )
    if seat_status in (SeatStatus.LEAVING, SeatStatus.ABSENT) and game.turn_deadline > now:
        # Nobody is there to think: the server plays at once.
        game.turn_deadline = now
        new_turn = True
    if new_turn:
        due = game.clock_due_at
        # Strictly before: a message due at the deadline itself is not told from this turn's own.
        if reuse_clock and due is not None and now + CLOCK_REUSE_MARGIN < due < game.turn_deadline:
            return
        game.clock_due_at = game.turn_deadline
        dispatch.enqueue(
            dispatch.TURN_CLOCK,
            [game.pk, game.turn_version],
            (game.turn_deadline - now).total_seconds(),
            queue=dispatch.queue_for(table),
        )


def rearm_clock_now_if_turn(*, game: Game, table: Table, username: str) -> None:
    """A player leaving on their own turn: play it out now. Caller holds the game lock."""
    if game.status == GameStatus.PLAYING and game.turn_player == username:
        game.turn_deadline = timezone.now()
        game.save(update_fields=["turn_deadline", "updated_at"])
        dispatch.enqueue(
            dispatch.TURN_CLOCK, [game.pk, game.turn_version], 0, queue=dispatch.queue_for(table)
        )


def claim_seconds(state: RoundState) -> float:
    """The "Rummy!" claim window is the ruleset's (docs/rules.md "Rummy 500 household"): only a family with
    claim windows has one, so a claim window of a ruleset without the option is an error, not a default."""
    return float(state.rules.option_values()["rummy_call_seconds"])

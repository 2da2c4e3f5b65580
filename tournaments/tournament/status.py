"""A tournament's status and the one place it changes (`move_to`): scheduled → registering → running ⇄ paused →
finished | cancelled (docs/api.md "Tournaments"), plus locking a tournament, first in the lock order."""

from __future__ import annotations

from tournaments.errors import Conflict, NotFound, PlayCode
from tournaments.tournament.models import Tournament, TournamentStatus

S = TournamentStatus
# Where each status may go. Cancelling is possible until the end; finishing only from play (a paused
# tournament's round in play may still end it).
TRANSITIONS: dict[str, frozenset[str]] = {
    S.SCHEDULED: frozenset({S.REGISTERING, S.CANCELLED}),
    S.REGISTERING: frozenset({S.RUNNING, S.CANCELLED}),
    S.RUNNING: frozenset({S.PAUSED, S.FINISHED, S.CANCELLED}),
    S.PAUSED: frozenset({S.RUNNING, S.FINISHED, S.CANCELLED}),
    S.FINISHED: frozenset(),
    S.CANCELLED: frozenset(),
}


def may_move(current: str, to: str) -> bool:
    return to in TRANSITIONS[current]


def refuse(tournament: Tournament, to: str) -> Conflict:
    """The 409 for a move the status does not allow: `tournament.over` once finished or cancelled."""
    over = tournament.status in (S.FINISHED, S.CANCELLED)
    return Conflict(
        "A %(status)s tournament cannot become %(to)s.",
        params={"status": tournament.status, "to": to},
        code=PlayCode.TOURNAMENT_OVER if over else PlayCode.TOURNAMENT_INVALID_TRANSITION,
        details={"status": tournament.status, "to": to},
    )


def move_to(tournament: Tournament, to: str) -> None:
    """Change the status (the caller holds the tournament's lock and saves the row), or refuse with 409."""
    if not may_move(tournament.status, to):
        raise refuse(tournament, to)
    tournament.status = to


def lock_tournament(tournament_id: int) -> Tournament:
    """The tournament row locked: first in the lock order (tournament, table, game, seats, accounts)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound("No such tournament.", code=PlayCode.TOURNAMENT_NOT_FOUND)
    return tournament

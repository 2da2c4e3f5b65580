"""Driving a multi-table tournament in-process (simulations, benchmarks, tests): the messages its services send
are captured (`dispatch.captured`) and their task bodies run here one at a time, in the order sent, exactly as
workers would run them: `tournaments.start_round` → `round_start.start_round` (an instant round ends at once and
its end sends `tournaments.table_round_over`) → `progress.after_table_round` (busts, levels, balancing,
round-for-round, the finish; it sends the table's next `start_round`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils import timezone

from tournaments.live.messaging import dispatch
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.multi_table import progress
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament import admin_actions
from tournaments.tournament.models import Tournament, TournamentStatus

OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def drive(
    *,
    tournament_id: int,
    start: bool = True,
    max_messages: int = 10_000_000,
    after_message: Callable[[str, list[object]], None] | None = None,
    seed_messages: Sequence[tuple[str, list[Any]]] = (),
) -> int:
    """Start the tournament (unless `start` is False: it already runs) and run its messages until none is
    left (`seed_messages`: already sent ones to run first, e.g. a resume's); answers how many ran. `after_message(name, args)` is called after each (a test's invariant checks).
    A tournament whose rounds are played by people (not `instant_rounds`) stops at its first deals."""
    ran = 0
    with dispatch.captured() as queue:
        queue.extend((name, list(args)) for name, args in seed_messages)
        if start:
            admin_actions.start(tournament_id=tournament_id)
        while queue and ran < max_messages:
            name, args = queue.pop(0)
            if name == dispatch.START_ROUND:
                # Its pause is not waited for: a scheduled deal is due now.
                Game.objects.filter(pk=args[0], next_round_at__isnull=False).update(
                    next_round_at=timezone.now()
                )
                round_start.start_round(game_id=int(str(args[0])))
            elif name == TABLE_ROUND_OVER:
                tournament, table, round_id = args
                progress.after_table_round(
                    tournament_id=int(str(tournament)),
                    table_id=int(str(table)),
                    round_id=None if round_id is None else int(str(round_id)),
                )
            else:
                continue  # clocks and the like: an instant round has none
            ran += 1
            if after_message is not None:
                after_message(name, args)
    return ran


def is_over(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id, status__in=OVER).exists()

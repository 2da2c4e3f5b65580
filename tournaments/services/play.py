"""Live play of ring tables: the service's entry points for views, tasks and the table services.

Each job lives in its own module (docs/tables.md, "Where play's code lives"): `round_start` deals,
`moves` plays a client's move, `clocks` arms and `clock_runs` fires the turn clock and the claim window,
`round_end` settles, `between_rounds` schedules the next deal or winds a closed table down, `game_log` keeps
the event log, `game_locks` and `move_context` lock and read, `dispatch` sends the Celery tasks by name.
"""

from __future__ import annotations

from config.celery_app import TRANSIENT_ERRORS
from tournaments.services.between_rounds import schedule_round_start_if_ready, wind_down
from tournaments.services.clock_runs import run_close_claims, run_turn_clock, sweep_clocks
from tournaments.services.clocks import rearm_clock_now_if_turn
from tournaments.services.game_log import event_for
from tournaments.services.moves import submit_move
from tournaments.services.round_start import fail_table, start_round

__all__ = [
    "TRANSIENT_ERRORS",
    "event_for",
    "fail_table",
    "rearm_clock_now_if_turn",
    "run_close_claims",
    "run_turn_clock",
    "schedule_round_start_if_ready",
    "start_round",
    "submit_move",
    "sweep_clocks",
    "wind_down",
]

"""Celery queues by role (docs/operations.md "Queues by role"): with `RAMINO_QUEUES_BY_ROLE=1` each kind of task
goes to a queue of its own, so that each role gets workers of its own and none waits behind another's backlog
(a 250,000-entrant start sends 62,500 deals at once; turn clocks must stay within milliseconds). Off (the
default), everything but practice stays on the default queue, as a small site wants."""

from __future__ import annotations

from typing import Any

# Practice tables' tasks: always on the practice queue (RAMINO_PRACTICE_BOTS_QUEUE).
PRACTICE_TASKS = ("tournaments.practice_bot_move", "tournaments.close_practice")

# Task name -> role. The names are the tasks' stable public names (tournaments/tasks.py).
ROLES: dict[str, str] = {
    "tournaments.table_round_over": "table_jobs",
    "tournaments.advance_tournament": "table_jobs",
    "tournaments.start_round": "deals",
    "tournaments.turn_clock": "clocks",
    "tournaments.close_claims": "clocks",
    "tournaments.run_tournament_schedule": "schedule",
    "tournaments.multi_start_batch": "schedule",
    "tournaments.create_from_template": "schedule",
    "tournaments.sweep_clocks": "schedule",
    "tournaments.close_idle_tables": "schedule",
    "tournaments.forget_idempotency_keys": "schedule",
}


def role_routes(prefix: str = "") -> dict[str, dict[str, str]]:
    """CELERY_TASK_ROUTES sending each task of `ROLES` to the queue `<prefix><role>`."""
    return {name: {"queue": f"{prefix}{role}"} for name, role in ROLES.items()}


def role_routes_from(env: Any) -> dict[str, dict[str, str]]:
    """The routes by role when the environment turns them on (`RAMINO_QUEUES_BY_ROLE`), queues named with
    `RAMINO_QUEUE_PREFIX`; else none."""
    if not env.bool("RAMINO_QUEUES_BY_ROLE", False):
        return {}
    return role_routes(str(env("RAMINO_QUEUE_PREFIX", default="")))

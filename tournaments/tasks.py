"""Celery tasks of live play and of the tournament kinds: thin, named (live play's names in `live.messaging.dispatch`,
each kind's in its `task_names`), idempotent (each carries the version it was set for). Where live play and the
kinds meet, they are composed here (the beat's sweeper, `sweep_all`), never in live play.

`acks_late`: a task lost with its worker is delivered again; running twice is harmless because the
services check the game version (or status) under the game's row lock before doing anything.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from tournaments.deals import services as deals
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.messaging import dispatch
from tournaments.live.moves import idempotency
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables
from tournaments.multi_table import progress as multi_progress
from tournaments.multi_table import recurring, schedule
from tournaments.multi_table import start as multi_start
from tournaments.multi_table.task_names import (
    CREATE_FROM_TEMPLATE,
    RUN_TOURNAMENT_SCHEDULE,
    START_BATCH,
    TABLE_ROUND_OVER,
)
from tournaments.practice import guests
from tournaments.practice import services as practice
from tournaments.practice.task_names import BOT_MOVE, CLOSE_PRACTICE, PURGE_GUESTS
from tournaments.presence import services as presence
from tournaments.presence.task_names import FORGET_PRESENCE
from tournaments.single_table import progress as tournament_progress
from tournaments.single_table.task_names import ADVANCE_TOURNAMENT


@shared_task(name=dispatch.TURN_CLOCK, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def turn_clock(game_id: int, version: int) -> bool:
    return clock_runs.run_turn_clock(game_id=game_id, version=version)


@shared_task(name=dispatch.CLOSE_CLAIMS, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def close_claims(game_id: int, version: int) -> bool:
    return clock_runs.run_close_claims(game_id=game_id, version=version)


@shared_task(name=dispatch.START_ROUND, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def start_round(game_id: int) -> bool:
    return round_start.start_round(game_id=game_id) is not None


@shared_task(name=BOT_MOVE, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def practice_bot_move(game_id: int, version: int) -> bool:
    return practice.bot_turn(game_id=game_id, version=version)


@shared_task(name=CLOSE_PRACTICE, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def close_practice(table_id: int) -> None:
    practice.close_practice(table_id=table_id)


@shared_task(name=PURGE_GUESTS, acks_late=True, ignore_result=True)
def purge_guests() -> int:
    return guests.purge_guests().guests


def sweep_all(*, grace_seconds: float | None = None) -> int:
    """What the beat's sweeper re-sends (`sweep_clocks`): live play's lost clock and deal messages, then each
    tournament kind's lost after-round jobs (a tournament's table deals when its tournament says so). Answers
    how many messages were sent. Composed here so that live play knows no tournament kind."""
    if grace_seconds is None:
        grace_seconds = float(settings.RAMINO_CLOCK_SWEEP_GRACE_SECONDS)
    count = clock_runs.sweep_clocks(grace_seconds=grace_seconds)
    count += tournament_progress.sweep(grace_seconds=grace_seconds)
    count += multi_start.resume_starts(grace_seconds=grace_seconds)
    return count + multi_progress.sweep(grace_seconds=grace_seconds)


@shared_task(name=dispatch.SWEEP_CLOCKS, acks_late=True, ignore_result=True)
def sweep_clocks() -> int:
    return sweep_all()


@shared_task(name=dispatch.FORGET_IDEMPOTENCY_KEYS, acks_late=True, ignore_result=True)
def forget_idempotency_keys() -> int:
    return idempotency.forget_expired()


@shared_task(name=FORGET_PRESENCE, acks_late=True, ignore_result=True)
def forget_presence() -> int:
    return presence.forget()


@shared_task(name=dispatch.CLOSE_IDLE_TABLES, acks_late=True, ignore_result=True)
def close_idle_tables() -> int:
    return tables.close_idle_private_tables()


@shared_task(name=ADVANCE_TOURNAMENT, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def advance_tournament(tournament_id: int, round_id: int | None) -> str:
    return tournament_progress.advance(tournament_id=tournament_id, round_id=round_id)


@shared_task(name=RUN_TOURNAMENT_SCHEDULE, acks_late=True, ignore_result=True)
def run_tournament_schedule() -> dict[str, int]:
    return schedule.run_schedule()


@shared_task(name=CREATE_FROM_TEMPLATE, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def create_from_template(template_id: int) -> int | None:
    tournament = recurring.create_from_template(template_id=template_id)
    return None if tournament is None else tournament.pk


@shared_task(name=TABLE_ROUND_OVER, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def table_round_over(tournament_id: int, table_id: int, round_id: int | None) -> str:
    return multi_progress.after_table_round(tournament_id=tournament_id, table_id=table_id, round_id=round_id)


@shared_task(name=START_BATCH, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def multi_start_batch(tournament_id: int) -> str:
    return multi_start.seat_next_batch(tournament_id=tournament_id)


@shared_task(name=deals.EXPIRE_DEAL, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def expire_deal(deal_id: int) -> bool:
    return deals.expire(deal_id=deal_id)

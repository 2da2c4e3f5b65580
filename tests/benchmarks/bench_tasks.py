"""The floor of `make bench-tournament`: a task that does nothing but count itself and send the next one.

The tournament's table events are chains of tasks (a round start sends the table's job, the job sends the next
round start), so the floor is the same shape without the work: chains of `bench.floor`, each task only sending
its successor until the deadline (counted, like every task, by the signal handlers below). The worker imports this
module through `celery worker --include tests.benchmarks.bench_tasks`; nothing else does.
"""

from __future__ import annotations

import os
import time
from typing import Any

import redis
from celery import shared_task
from celery.signals import task_postrun, task_prerun
from django.conf import settings

FLOOR = "bench.floor"

_client: redis.Redis | None = None


def counter() -> redis.Redis:
    global _client
    if _client is None:
        _client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return _client


@shared_task(name=FLOOR, ignore_result=True)
def floor(key: str, deadline: float) -> None:
    if time.time() < deadline:
        floor.apply_async(args=(key, deadline))


# Every task run in a benchmark worker is counted and timed per task name (the run is BENCH_RUN: the queue).
_began: dict[str, float] = {}


@task_prerun.connect
def _task_began(task_id: str | None = None, **_: Any) -> None:
    if task_id is not None:
        _began[task_id] = time.perf_counter()


@task_postrun.connect
def _task_done(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    began = _began.pop(task_id or "", None)
    run = os.environ.get("BENCH_RUN")
    if began is None or task is None or not run:
        return
    pipe = counter().pipeline(transaction=False)
    pipe.incr(f"bench:{run}:count:{task.name}")
    pipe.incrbyfloat(f"bench:{run}:seconds:{task.name}", time.perf_counter() - began)
    pipe.execute()

"""Settings of `make bench-tournament`'s workers: the test settings, with the tournaments' jobs
(`tournaments.table_round_over`) on a queue of their own (`BENCH_JOBS_QUEUE`) that the workers consume beside
the default one. Kombu's Redis transport takes turns between a worker's queues, so a job does not wait behind
the thousands of first deals a 20,000-entrant start sends (the routing a site would use: docs/performance.md)."""

import os

from config.settings.test import *  # noqa: F403

if jobs := os.environ.get("BENCH_JOBS_QUEUE"):
    # A batched start's steps too (a site routes them to `schedule`): on the default queue each would wait
    # behind the hundreds of first deals the step before it sent.
    CELERY_TASK_ROUTES = {
        "tournaments.table_round_over": {"queue": jobs},
        "tournaments.multi_start_batch": {"queue": jobs},
    }

# `--formats`: a busted player's rebuy wait does not hold the tables' chains (nobody rebuys in the benchmark).
RAMINO_REBUY_WAIT_SECONDS = float(os.environ.get("RAMINO_REBUY_WAIT_SECONDS", "0"))

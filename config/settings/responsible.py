"""Responsible play's settings (docs/rules.md "Responsible play"; docs/operations.md), read by config/settings/base.py
at its end: its beat job joins `CELERY_BEAT_SCHEDULE` there."""

from datetime import timedelta
from typing import Any

import environ

env = environ.Env()

# A limit's raise or removal applies this many days after it is asked for (a cut applies at once).
RAMINO_LIMIT_RAISE_DAYS = max(0, env.int("RAMINO_LIMIT_RAISE_DAYS", default=7))
# The zone of the limits' calendar periods: a day from midnight, a week from Monday, a month from its first day.
RAMINO_SITE_TIME_ZONE = env("RAMINO_SITE_TIME_ZONE", default="Europe/Rome")

RESPONSIBLE_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "responsible: time limits and sessions": {
        "task": "responsible.sweep",
        "schedule": timedelta(minutes=1),
        "description": "Leave at the round's end the ring tables of players past their daily time limit; record "
        "play sessions.",
    },
}

"""Gauges computed from the database when `/metrics` is scraped: the same in every process and after any
restart, so they need no multiprocess bookkeeping (docs/operations.md, "Metrics").

- the reconciliation: whether the latest finished run found the ledger consistent, how long ago it finished,
  how many problems it found, and whether the most recent run (of any status) failed;
- tournaments: how many there are in each status, and those still registering after their start time (the
  schedule job starts them within seconds; one left there is stuck) with the longest overdue time;
- responsible play: the players with each limit in force, and those at it now; the players on a break now, by kind
  (cool-off, self-exclusion, indefinite exclusion), and the accounts kept to practice tables for want of a
  verification;
- `ramino_database_up`: 0 when these reads failed (the gauges above are then left out).

A few indexed reads per scrape."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator

from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ledger import selectors as ledger_selectors
from ledger.models import ReconciliationRun, ReconciliationStatus
from responsible.breaks import selectors as breaks
from responsible.limits import metrics as limit_metrics
from responsible.verification import selectors as verification
from tournaments.models import Tournament, TournamentStatus

logger = logging.getLogger(__name__)


def _reconciliation() -> Iterator[Metric]:
    latest = ledger_selectors.latest_reconciliation()
    ok = GaugeMetricFamily(
        "ramino_reconciliation_ok",
        "1 when the latest finished reconciliation found the ledger consistent; 0 when it found problems or "
        "none has finished.",
    )
    ok.add_metric([], 1.0 if latest is not None and latest.ok else 0.0)
    age = GaugeMetricFamily(
        "ramino_reconciliation_age_seconds",
        "Seconds since the latest finished reconciliation finished (+Inf when none has).",
    )
    finished = latest.finished_at if latest is not None else None
    age.add_metric([], (timezone.now() - finished).total_seconds() if finished is not None else math.inf)
    problems = GaugeMetricFamily(
        "ramino_reconciliation_problems", "Problems the latest finished reconciliation found."
    )
    problems.add_metric([], float(len(latest.problems or [])) if latest is not None else 0.0)
    newest = ReconciliationRun.objects.order_by("-id").values_list("status", flat=True).first()
    failed = GaugeMetricFamily(
        "ramino_reconciliation_last_run_failed",
        "1 when the most recent reconciliation run failed (its worker raised, or it was abandoned).",
    )
    failed.add_metric([], 1.0 if newest == ReconciliationStatus.FAILED else 0.0)
    yield from (ok, age, problems, failed)


def _tournaments() -> Iterator[Metric]:
    by_status = dict(
        Tournament.objects.order_by().values("status").annotate(n=Count("pk")).values_list("status", "n")
    )
    counts = GaugeMetricFamily("ramino_tournaments", "Tournaments in each status.", labels=["status"])
    for status in TournamentStatus.values:
        counts.add_metric([status], float(by_status.get(status, 0)))
    now = timezone.now()
    late = Tournament.objects.filter(status=TournamentStatus.REGISTERING, starts_at__lt=now).aggregate(
        n=Count("pk"), first=Min("starts_at")
    )
    overdue = GaugeMetricFamily(
        "ramino_tournaments_registering_past_start",
        "Tournaments still registering after their start time.",
    )
    overdue.add_metric([], float(late["n"]))
    seconds = GaugeMetricFamily(
        "ramino_tournament_start_overdue_seconds",
        "How long past its start time the most overdue tournament still registering is (0 when none is).",
    )
    seconds.add_metric([], (now - late["first"]).total_seconds() if late["first"] is not None else 0.0)
    yield from (counts, overdue, seconds)


def _limits() -> Iterator[Metric]:
    found = limit_metrics.players_with_and_at_limits(now=timezone.now())
    having = GaugeMetricFamily(
        "ramino_players_with_limit", "Players with this limit in force (docs/rules.md).", labels=["limit"]
    )
    at = GaugeMetricFamily(
        "ramino_players_at_limit",
        "Players at this limit now: nothing more may be staked in the period, or the day's minutes are played.",
        labels=["limit"],
    )
    for name, (count_with, count_at) in found.items():
        having.add_metric([name], float(count_with))
        at.add_metric([name], float(count_at))
    yield from (having, at)


def _responsible() -> Iterator[Metric]:
    counts = breaks.active_counts()
    on_break = GaugeMetricFamily(
        "ramino_players_on_break",
        "Players on a cool-off or a self-exclusion now, by kind (`self_exclusion_indefinite` for an indefinite "
        "exclusion not revoked).",
        labels=["kind"],
    )
    on_break.add_metric(["cool_off"], float(counts.get(("cool_off", False), 0)))
    on_break.add_metric(["self_exclusion"], float(counts.get(("self_exclusion", False), 0)))
    on_break.add_metric(["self_exclusion_indefinite"], float(counts.get(("self_exclusion", True), 0)))
    unverified = GaugeMetricFamily(
        "ramino_players_unverified_past_deadline",
        "Registered players kept to practice tables: not verified RAMINO_VERIFY_DAYS after registration (0 when "
        "the setting is off).",
    )
    unverified.add_metric([], float(verification.unverified_past_deadline()))
    yield from (on_break, unverified)


class DatabaseCollector(Collector):
    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily(
            "ramino_database_up", "1 when the scrape-time reads of the database succeeded."
        )
        try:
            found = [*_reconciliation(), *_tournaments(), *_limits(), *_responsible()]
        except Exception as exc:  # the database away: say so rather than fail the whole scrape
            logger.warning("metrics: the database could not be read: %s", type(exc).__name__)
            up.add_metric([], 0.0)
            yield up
            return
        up.add_metric([], 1.0)
        yield up
        yield from found

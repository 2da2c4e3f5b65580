"""The daily integrity job through the real services: simulated tables written as live play writes them
(rounds, the move log, settlements posted through the ledger), then `services.run_checks`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.utils import timezone

from config.celery_app import app as celery_app
from devtools import integrity_simulation as simulation
from integrity import services, tasks
from integrity.models import Checkpoint, Flag, FlagStatus, PairStat
from ledger.models import Transfer
from tests.integrity.writer import write_table
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Round

pytestmark = pytest.mark.django_db


def _later() -> Any:
    # The job leaves settlements younger than RAMINO_INTEGRITY_LAG_SECONDS for its next run.
    return timezone.now() + timedelta(minutes=5)


@pytest.fixture
def played(db: None) -> dict[str, Any]:
    """Three honest heads-up tables, one where t4p0 dumps chips to t4p1, one where t5p0 and t5p1 soft-play."""
    tables: dict[str, Any] = {}
    for table_id, behaviour, seed in [
        (1, "honest", 11),
        (2, "honest", 12),
        (3, "honest", 13),
        (4, "dumping", 14),
        (5, "soft", 15),
    ]:
        sim = simulation.simulate_table(
            table_id=table_id,
            behaviour=behaviour,
            players=[f"t{table_id}p0", f"t{table_id}p1"],
            rounds=25,
            seed=seed,
        )
        tables[behaviour + str(table_id)] = write_table(sim)
    return tables


def _flags() -> set[tuple[str, tuple[str, ...]]]:
    return {(f.kind, tuple(f.players)) for f in Flag.objects.all()}


@pytest.mark.sqlite  # and in the SQLite leg: the job's reads and writes on the embedded default
def test_dumping_and_soft_play_are_flagged_and_honest_play_is_not(played: dict[str, Any]) -> None:
    summary = services.run_checks(now=_later())
    assert summary.rounds == Round.objects.filter(settled=True).exclude(transfers=[]).count()
    assert _flags() == {("chip_dumping", ("t4p0", "t4p1")), ("soft_play", ("t5p0", "t5p1"))}
    dumping = Flag.objects.get(kind="chip_dumping")
    assert dumping.status == FlagStatus.OPEN and dumping.score >= 3
    table = played["dumping4"]
    assert dumping.evidence["tables"] == [table]
    rounds = set(Round.objects.filter(game__table_id=table).values_list("pk", flat=True))
    assert set(dumping.evidence["rounds"]) == rounds
    transfers = set(Transfer.objects.filter(table_id=table, kind="settlement").values_list("pk", flat=True))
    assert set(dumping.evidence["transfers"]) == transfers
    assert dumping.evidence["net"] == dumping.evidence["paid"] > 500
    # The flag names the chips moved: who paid whom, and their sum.
    paid = dumping.evidence["paid"]
    assert dumping.evidence["chips_moved"] == [{"from": "t4p0", "to": "t4p1", "chips": paid}]
    assert dumping.evidence["chips"] == paid
    soft = Flag.objects.get(kind="soft_play")
    assert soft.evidence["chips"] == sum(m["chips"] for m in soft.evidence["chips_moved"]) > 0
    assert_reconciled()


def test_rerunning_changes_nothing_and_new_rounds_update_the_open_flag(played: dict[str, Any]) -> None:
    services.run_checks(now=_later())
    before = list(Flag.objects.order_by("pk").values())
    stats = list(PairStat.objects.order_by("pk").values())
    again = services.run_checks(now=_later())
    assert again.rounds == 0 and again.flags_raised == 0 and again.flags_updated == 0
    assert list(Flag.objects.order_by("pk").values()) == before
    assert list(PairStat.objects.order_by("pk").values()) == stats
    sim = simulation.simulate_table(
        table_id=6, behaviour="dumping", players=["t4p0", "t4p1"], rounds=3, seed=99
    )
    write_table(sim)
    later = services.run_checks(now=_later())
    assert later.rounds == 3 and later.flags_raised == 0 and later.flags_updated == 1
    assert Flag.objects.filter(kind="chip_dumping").count() == 1
    assert PairStat.objects.get(a="t4p0", b="t4p1").rounds == 28


def test_the_job_reads_only_settlements_older_than_the_lag(played: dict[str, Any]) -> None:
    assert services.run_checks(now=timezone.now()).rounds == 0
    assert Flag.objects.count() == 0 and Checkpoint.objects.get().last_transfer_id == 0
    assert services.run_checks(now=_later(), max_batches=None).rounds > 0


def test_small_batches_read_each_round_once(played: dict[str, Any], settings: Any) -> None:
    settings.RAMINO_INTEGRITY_BATCH_ROUNDS = 7
    summary = services.run_checks(now=_later())
    assert summary.rounds == Round.objects.filter(settled=True).exclude(transfers=[]).count()
    assert PairStat.objects.get(a="t4p0", b="t4p1").rounds == 25
    assert _flags() == {("chip_dumping", ("t4p0", "t4p1")), ("soft_play", ("t5p0", "t5p1"))}


def test_a_decision_is_logged_and_restarts_the_window(played: dict[str, Any], staff: Any) -> None:
    services.run_checks(now=_later())
    flag = Flag.objects.get(kind="chip_dumping")
    services.decide(flag_id=flag.pk, status=FlagStatus.DISMISSED, note="friends settling a bet", by=staff)
    flag.refresh_from_db()
    assert (flag.status, flag.note, flag.decided_by) == ("dismissed", "friends settling a bet", staff)
    entry = LogEntry.objects.get(object_id=str(flag.pk))
    assert entry.action_flag == CHANGE and entry.user == staff and "status" in entry.change_message
    stat = PairStat.objects.get(a="t4p0", b="t4p1")
    assert stat.paid_ab == 0 and stat.rounds == 0 and stat.dumping_since == stat.last_round_id > 0
    assert stat.feeds_offered > 0  # soft play's counters are the other signal's
    # More dumping after the decision: a new flag, its window after the decided one.
    write_table(
        simulation.simulate_table(
            table_id=7, behaviour="dumping", players=["t4p0", "t4p1"], rounds=25, seed=5
        )
    )
    services.run_checks(now=_later())
    flags = list(Flag.objects.filter(kind="chip_dumping").order_by("pk"))
    assert [f.status for f in flags] == ["dismissed", "open"]
    assert flags[1].since == stat.dumping_since
    assert not set(flags[1].evidence["rounds"]) & set(flags[0].evidence["rounds"])


def test_the_same_address_behind_two_accounts_at_a_table_is_flagged(db: None) -> None:
    sim = simulation.simulate_table(
        table_id=1, behaviour="honest", players=["ann", "bob", "cy"], rounds=1, seed=1
    )
    table = write_table(sim, addresses={"ann": "203.0.113.9", "bob": "203.0.113.9", "cy": "198.51.100.4"})
    services.run_checks(now=_later())
    flag = Flag.objects.get(kind="shared_address")
    assert flag.players == ["ann", "bob"] and flag.evidence["tables"] == [table]
    assert flag.evidence["address"] == "203.0.113.9"
    services.run_checks(now=_later())
    assert Flag.objects.filter(kind="shared_address").count() == 1


def test_the_same_pair_at_many_private_tables_is_flagged(db: None, settings: Any) -> None:
    for table_id in range(1, 6):
        sim = simulation.simulate_table(
            table_id=table_id, behaviour="honest", players=["ann", "bob"], rounds=1, seed=table_id
        )
        write_table(sim)
    write_table(
        simulation.simulate_table(table_id=9, behaviour="honest", players=["ann", "cy"], rounds=1, seed=9)
    )
    services.run_checks(now=_later())
    flag = Flag.objects.get(kind="frequent_pair")
    assert flag.players == ["ann", "bob"] and len(flag.evidence["tables"]) == 5
    assert flag.evidence["private_tables"] == {"ann": 6, "bob": 5}


def test_the_daily_task_is_scheduled_and_runs_the_job(played: dict[str, Any], settings: Any) -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["integrity: daily checks"]
    assert entry["task"] == tasks.run_checks.name == "integrity.run_checks"
    assert entry["task"] in celery_app.tasks
    settings.RAMINO_INTEGRITY_LAG_SECONDS = -600  # the rounds just written count as old enough
    assert tasks.run_checks() == Round.objects.filter(settled=True).exclude(transfers=[]).count()
    assert Flag.objects.count() == 2

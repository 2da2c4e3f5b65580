"""The tournament row's counters against a count in every recorded reconciliation run (issue 34: "checked against a
count by the reconciliation"; docs/tournaments.md "Counters on the tournament's row"): a counter that disagrees
with its count makes the run not ok, with a problem naming the tournament, the counter and both numbers; the
ledger's own check is untouched."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import F

from ledger.models import ReconciliationStatus
from ledger.selectors import reconcile
from ledger.services import reconciliation
from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.tournament import counters
from tournaments.tournament.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_recorded_run_reports_a_counter_that_disagrees_with_its_count(
    admin_user: Any, make_player: Any
) -> None:
    tournament = multi.multi_tournament(admin_user, name="Domenica")
    multi.register_all(tournament, [make_player() for _ in range(5)])
    tables = multi.start(tournament, sizes=[3, 2])
    assert counters.check(tournament_ids=[tournament.pk]) == []
    clean = reconciliation.run_reconciliation(trigger="manual")
    assert clean.ok and clean.problems == []

    # A table closed without the counter (what no service does): the lobby's tables page would count it.
    multi.close_table(tables[1])
    Tournament.objects.filter(pk=tournament.pk).update(tables_open=F("tables_open") + 1)
    run = reconciliation.run_reconciliation(trigger="manual")
    assert not run.ok
    assert run.problems == [
        {
            "code": "tournament.counter_mismatch",
            "message": f"Tournament #{tournament.pk} keeps tables_open = 2 but counts 1.",
            "tournament": tournament.pk,
            "counter": "tables_open",
            "kept": 2,
            "counted": 1,
        }
    ]
    assert reconcile().ok  # the ledger itself still reconciles

    # A queued run, as a worker performs it, says the same; so does a players-left counter off by one.
    Tournament.objects.filter(pk=tournament.pk).update(
        tables_open=F("tables_open") - 1, players_left=F("players_left") + 1
    )
    queued, _created = reconciliation.request_reconciliation(requested_by=admin_user)
    performed = reconciliation.perform_reconciliation_run(run_id=queued.pk)
    assert performed is not None and performed.status == ReconciliationStatus.FINISHED
    assert not performed.ok
    assert [(p["counter"], p["kept"], p["counted"]) for p in performed.problems] == [("players_left", 6, 5)]

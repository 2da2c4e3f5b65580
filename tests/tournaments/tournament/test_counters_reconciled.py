"""The tournament row's counters against a count in every recorded reconciliation run (issue 34: "checked against a
count by the reconciliation"; docs/tournaments.md "Counters on the tournament's row"): a counter that disagrees
with its count makes the run not ok, with a problem naming the tournament, the counter and both numbers; the
ledger's own check is untouched."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

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


def test_the_check_counts_in_two_flat_queries_whatever_the_field(admin_user: Any, make_player: Any) -> None:
    """The check reads the entries' counts and the open tables' counts in a query each, neither holding a
    subquery: the open tables counted in a subquery beside the entries' aggregate were grouped by it, and
    PostgreSQL ran it once per entry (three tournaments of 250,000 entrants: more than 13 minutes; 0.5 s since)."""
    for name, sizes in (("Lunedì", [3, 2]), ("Martedì", [2, 2, 2])):
        tournament = multi.multi_tournament(admin_user, name=name)
        multi.register_all(tournament, [make_player() for _ in range(sum(sizes))])
        multi.start(tournament, sizes=sizes)
    with CaptureQueriesContext(connection) as queries:
        assert counters.check() == []
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) == 2, statements
    assert all(sql.upper().count("SELECT") == 1 for sql in statements), statements
    # ...and a mismatch in either is still found.
    tournament.refresh_from_db()
    Tournament.objects.filter(pk=tournament.pk).update(
        tables_open=F("tables_open") + 1, entrants=F("entrants") - 1
    )
    assert sorted((m.counter, m.kept, m.counted) for m in counters.check(tournament_ids=[tournament.pk])) == [
        ("entrants", 5, 6),
        ("tables_open", 4, 3),
    ]

"""A registration costs the same number of SQL statements with 5 or 200 entrants already in: it looks up the
player's own live entry and reads the row's `entrants` counter (issue 34: no count), and never loads them
(issue 12's scale)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ledger.models import SITE_CHIPS, AccountKind
from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tournaments.errors import Conflict, PlayCode
from tournaments.tournament import counters, registration
from tournaments.tournament.models import EntryStatus, Tournament, TournamentEntry, TournamentStatus

pytestmark = pytest.mark.django_db


def _multi(admin: Any, *, max_entrants: int) -> Tournament:
    tournament = Tournament.objects.create(
        name="Sunday multi",
        kind="multi",
        game="rummy500",
        options={},
        buy_in=100,
        fee=10,
        starting_stack=1000,
        rounds_per_level=2,
        pcr_schedule=[1, 2],
        seats=4,
        max_entrants=max_entrants,
        starts_at=timezone.now() + timedelta(hours=1),
        payouts=[100],
        status=TournamentStatus.REGISTERING,
        created_by=admin,
    )
    tournament.pool_account = accounts.open_account(
        kind=AccountKind.PRIZE_POOL, chip_type=SITE_CHIPS, reference=f"tournament:{tournament.pk}"
    )
    tournament.save(update_fields=["pool_account"])
    return tournament


def _with_entrants(tournament: Tournament, count: int) -> None:
    """`count` entries written directly (unpaid): only their number matters to the cost measured here; the row's
    counter kept as registration keeps it (`counters.add`)."""
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"t{tournament.pk}-e{i}") for i in range(count)
    )
    TournamentEntry.objects.bulk_create(TournamentEntry(tournament=tournament, player=u) for u in users)
    counters.add(tournament, entrants=count)
    assert counters.check(tournament_ids=[tournament.pk]) == []


def _statements(tournament: Tournament, user: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        entry = registration.register(user=user, tournament_id=tournament.pk)
    assert entry.status == EntryStatus.REGISTERED
    entries_read = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].startswith("SELECT") and 'FROM "tournaments_tournamententry"' in q["sql"]
    ]
    # Each read of the entries is an existence check (the count is the row's counter): one row at most.
    assert entries_read, "the registration looks at the entries"
    assert all("LIMIT 1" in sql and "COUNT(" not in sql for sql in entries_read), entries_read
    return len(captured.captured_queries)


def test_registration_cost_does_not_grow_with_the_entrants(admin_user: Any, make_player: Any) -> None:
    warm_up, small, large = (_multi(admin_user, max_entrants=1000) for _ in range(3))
    # The first registration of all opens the house's fee account: not part of what is compared.
    _statements(warm_up, make_player("cat"))
    _with_entrants(small, 5)
    _with_entrants(large, 200)
    assert _statements(small, make_player("ann")) == _statements(large, make_player("bob"))
    assert TournamentEntry.objects.filter(tournament=large).count() == 201
    assert counters.check(tournament_ids=[small.pk, large.pk]) == []
    assert_reconciled()


def test_the_player_already_in_and_the_cap_are_still_refused(admin_user: Any, make_player: Any) -> None:
    tournament = _multi(admin_user, max_entrants=3)
    ann = make_player("ann")
    registration.register(user=ann, tournament_id=tournament.pk)
    with pytest.raises(Conflict) as again:
        registration.register(user=ann, tournament_id=tournament.pk)
    assert again.value.code == PlayCode.TOURNAMENT_ALREADY_REGISTERED
    _with_entrants(tournament, 2)
    with pytest.raises(Conflict) as full:
        registration.register(user=make_player("bob"), tournament_id=tournament.pk)
    assert full.value.code == PlayCode.TOURNAMENT_FULL
    assert_reconciled()

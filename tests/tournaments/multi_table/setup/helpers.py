"""Settings of a multi-table tournament for the tests of its setup, schedule, templates and registration."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from ledger.models import Account
from tests.factories import FAST
from tournaments.tournament import setup as tournament_setup
from tournaments.tournament.models import Tournament


def multi_settings(*, starts_in: timedelta = timedelta(hours=1), **overrides: Any) -> dict[str, Any]:
    starts_at: datetime = timezone.now() + starts_in
    return {
        "name": "Sunday multi",
        "kind": "multi",
        "game": "rummy500",
        "options": dict(FAST),
        "buy_in": 100,
        "fee": 10,
        "max_entrants": 40,
        "min_entrants": 4,
        "seats": 4,
        "starting_stack": 1500,
        "pcr_schedule": [1, 2, 3, 5],
        "rounds_per_level": 2,
        "starts_at": starts_at,
        "payouts": [50, 30, 20],
        **overrides,
    }


def create_multi(admin: Any, **overrides: Any) -> Tournament:
    return tournament_setup.create_tournament(user=admin, settings=multi_settings(**overrides))


def pool_balance(tournament: Tournament) -> int:
    assert tournament.pool_account is not None
    return Account.objects.get(pk=tournament.pool_account.pk).balance

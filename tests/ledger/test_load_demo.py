from __future__ import annotations

import io

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command

from ledger.models import GrantPolicy, Transfer
from ledger.selectors import wallet_balance
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Table
from tournaments.tournament.models import Tournament, TournamentTemplate

pytestmark = pytest.mark.django_db


def test_load_demo_is_idempotent_and_funds_the_players() -> None:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=io.StringIO())
    User = get_user_model()
    assert User.objects.get(username="admin").is_superuser
    staff = User.objects.get(username="staff")
    assert staff.is_staff and not staff.is_superuser
    for name in ("ann", "bob", "cid", "dee"):
        assert wallet_balance(user=User.objects.get(username=name)) == 10_000
        assert f"{name} / " in out.getvalue()
    assert Transfer.objects.count() == 4
    # The house grant is on for players who register (the demo players are funded as before).
    policy = GrantPolicy.objects.get()
    assert policy.enabled and policy.welcome_chips == 1_000 and policy.daily_floor == 500
    assert "House grant: 1000 welcome chips" in out.getvalue()
    # Tables of every family, not only Rummy 500 (a Basic-family one and a Board Rummy one).
    assert sorted(Table.objects.filter(private=False).values_list("game", flat=True)) == [
        "basic",
        "board",
        "rummy500",
        "rummy500_household",
    ]
    # One multi-table tournament open for registration and one nightly template with its beat task.
    (multi,) = Tournament.objects.filter(kind="multi")
    assert multi.status == "registering" and multi.starts_at is not None and multi.seats == 2
    (template,) = TournamentTemplate.objects.all()
    assert template.periodic_task is not None and template.periodic_task.enabled
    assert f"Demo tournament: #{multi.pk}" in out.getvalue()
    assert authenticate(username="admin", password="admin-pass-123") is not None
    assert authenticate(username="ann", password="demo-pass-123") is not None
    assert_reconciled()

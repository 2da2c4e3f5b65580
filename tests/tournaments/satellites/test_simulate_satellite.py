"""`manage.py simulate_tournament --satellite-to <id>`: a one-table and a multi-table satellite played by bots to
the end, their tickets printed; every chip type (site chips, tournament chips, tickets) sums to zero. On SQLite too."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.management import call_command

from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import new_multi
from tournaments.tickets import targets
from tournaments.tournament.models import TournamentEntry

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def simulate(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate_tournament", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("args", "tickets"),
    [
        # pool 3 x 100 = 300, face 110: two seats
        (("--kind", "quick", "--entrants", "3", "--rounds", "1", "--fee", "0"), 2),
        # pool 10 x 100 = 1000, face 110: nine seats; play stops when nine players are left
        (("--kind", "multi", "--entrants", "10", "--instant", "--payouts", "100"), 9),
    ],
)
def test_a_simulated_satellite_pays_tickets_to_its_target(
    admin_user: Any, args: tuple[str, ...], tickets: int
) -> None:
    target = new_multi(admin_user, buy_in=100, fee=10)
    printed = simulate(*args, "--seed", "5", "--satellite-to", str(target.pk))
    assert "reconciliation: ok" in printed, printed
    assert re.search(rf"satellite to tournament {target.pk}: {tickets} ticket\(s\) won", printed), printed
    chip_type = targets.tournament_chip_type(target.pk)
    assert sum(e.tickets_won for e in TournamentEntry.objects.exclude(tournament=target)) == tickets
    from ledger.models import Account, AccountKind

    held = Account.objects.filter(kind=AccountKind.WALLET, chip_type=chip_type)
    assert sum(a.balance for a in held) == tickets
    assert_reconciled()

"""`simulate_tournament --kind multi` with rebuys, the add-on and bounties (docs/rules.md "Rebuys and the
add-on", "Progressive knockout"): bots rebuy and take the add-on, the pool and every bounty are paid out."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db.models import Sum

from ledger.models import Transfer, TransferKind
from tests.ledger.utils import assert_reconciled
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def test_a_simulated_rebuy_knockout_tournament_pays_its_pool_and_bounties() -> None:
    out = io.StringIO()
    call_command(
        "simulate_tournament",
        *[
            "--kind",
            "multi",
            "--entrants",
            "10",
            "--instant",
            "--starting-stack",
            "100",
            "--rebuy-levels",
            "3",
            "--max-rebuys",
            "2",
        ],
        *["--addon-chips", "100", "--bounty-share", "50", "--rebuy-odds", "1", "--seed", "7"],
        stdout=out,
    )
    printed = out.getvalue()
    tournament = Tournament.objects.get()
    assert tournament.status == TournamentStatus.FINISHED
    entries = TournamentEntry.objects.filter(tournament=tournament)
    totals = entries.aggregate(rebuys=Sum("rebuys"), won=Sum("bounties_won"), prizes=Sum("prize"))
    addons = entries.filter(addon=True).count()
    assert totals["rebuys"] > 0 and addons > 0
    assert totals["won"] == 10 * 50  # every head's bounty, once
    assert totals["prizes"] == 10 * 50 + 100 * (totals["rebuys"] + addons)
    assert f"bounties paid {totals['won']}" in printed and "reconciliation: ok" in printed
    assert "rebuys  add-on  bounties" in printed
    assert_reconciled()


def test_simulated_bots_rebuy_when_their_stacks_outlast_the_rebuy_period() -> None:
    """The defaults' stacks (300 at PCR 1 and 2) rarely bust in two levels: bots short of chips (at most the
    starting stack) rebuy too, half as often as busted ones, so a seeded run buys rebuys."""
    out = io.StringIO()
    call_command(
        "simulate_tournament",
        *["--kind", "multi", "--entrants", "8", "--instant", "--rebuy-levels", "2", "--seed", "1"],
        stdout=out,
    )
    tournament = Tournament.objects.get()
    assert tournament.status == TournamentStatus.FINISHED
    entries = TournamentEntry.objects.filter(tournament=tournament)
    rebuys = entries.aggregate(n=Sum("rebuys"))["n"]
    assert rebuys > 0
    # A short stack's rebuy is legal only at most the starting stack: each one's computation says so.
    bought = [
        t.computation
        for t in Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.TOURNAMENT_BUY_IN)
        if t.computation.get("why") == "rebuy"
    ]
    assert len(bought) == rebuys and all(0 <= c["chips_before"] <= 300 for c in bought)
    assert any(c["chips_before"] > 0 for c in bought)
    assert entries.aggregate(p=Sum("prize"))["p"] == 8 * 100 + 100 * rebuys
    assert f"rebuys {rebuys}," in out.getvalue() and "reconciliation: ok" in out.getvalue()
    assert_reconciled()

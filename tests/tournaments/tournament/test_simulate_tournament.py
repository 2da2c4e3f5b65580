"""`manage.py simulate_tournament` plays a tournament through the real services and prints its standings, prizes
and reconciliation; the same seed gives the same standings."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

from tests.ledger.utils import assert_reconciled
from tournaments.tournament.models import Tournament, TournamentStatus

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def simulate(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate_tournament", *args, stdout=out)
    return out.getvalue()


def standings(printed: str) -> list[str]:
    lines = printed.splitlines()
    return lines[2 : lines.index(next(line for line in lines if line.startswith("entrants")))]


@pytest.mark.parametrize(
    "args",
    [
        ("--kind", "quick", "--entrants", "3", "--bots", "random", "--rounds", "1"),
        ("--kind", "single", "--entrants", "2", "--bots", "greedy", "--target-score", "40"),
    ],
)
def test_the_same_seed_gives_the_same_standings(args: tuple[str, ...]) -> None:
    first = simulate(*args, "--seed", "7")
    second = simulate(*args, "--seed", "7")
    assert standings(first) == standings(second)
    assert "reconciliation: ok" in first
    assert re.search(r"pool (\d+), paid \1", first), first
    assert all(t.status == TournamentStatus.FINISHED for t in Tournament.objects.all())
    assert_reconciled()


def test_a_multi_table_simulation_prints_the_same_standings_for_a_seed() -> None:
    args = ("--kind", "multi", "--entrants", "12", "--instant", "--payouts", "50,30,20")
    first = simulate(*args, "--seed", "3")
    second = simulate(*args, "--seed", "3")
    assert standings(first) == standings(second)
    assert len(standings(first)) == 12
    assert "reconciliation: ok" in first
    assert re.search(r"pool (\d+), paid \1, tournament events \d+", first), first
    assert all(t.status == TournamentStatus.FINISHED for t in Tournament.objects.all())
    assert_reconciled()


@pytest.mark.parametrize("method", ["icm", "chips"])
def test_a_multi_table_simulation_with_a_final_table_deal(method: str) -> None:
    from tournaments.deals.models import Deal, DealStatus

    printed = simulate(
        "--kind",
        "multi",
        "--entrants",
        "6",
        "--instant",
        "--payouts",
        "50,30,20",
        "--deal",
        method,
        "--seed",
        "5",
    )
    deal = Deal.objects.get()
    assert deal.status == DealStatus.ACCEPTED and deal.method == method
    assert f"final-table deal ({method})" in printed, printed
    assert sum(deal.amounts.values()) + deal.keep == deal.unpaid
    assert re.search(r"pool (\d+), paid \1", printed), printed
    assert "reconciliation: ok" in printed
    assert_reconciled()

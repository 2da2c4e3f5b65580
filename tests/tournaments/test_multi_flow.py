"""A multi-table tournament end to end with instant rounds, driven in-process (`multi_simulation.drive`)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ledger.models import Account, AccountKind, tournament_chip_type
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_helpers import chips_conserved, new_multi, register_all
from tournaments.models import EntryStatus, TournamentEntry, TournamentEvent, TournamentStatus
from tournaments.services import multi_simulation

pytestmark = pytest.mark.django_db


def test_twelve_entrants_play_to_one_winner_with_every_place_and_the_pool_paid(
    player: Any, admin_user: Any
) -> None:
    began = time.monotonic()
    tournament = new_multi(admin_user, instant_rounds=True, payouts=[50, 30, 20])
    users = [player(f"m{i}", chips=1000) for i in range(12)]
    register_all(tournament, users)
    steps: list[int] = []

    def check(name: str, args: list[object]) -> None:
        steps.append(chips_conserved(tournament))

    ran = multi_simulation.drive(tournament_id=tournament.pk, after_message=check)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED, (tournament.status, ran)
    assert all(chips == 12 * 1000 for chips in steps[:-1])
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    places = sorted(e.place for e in entries if e.place is not None)
    assert len(places) == 12 and places[0] == 1 and places.count(1) == 1
    assert [e.status for e in entries].count(EntryStatus.FINISHED) == 1
    assert sum(e.prize for e in entries) == 1200
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 0
    assert Account.objects.get(pk=tournament.mint_account_id).balance == 0
    assert (
        not Account.objects.filter(chip_type=tournament_chip_type(tournament.pk)).exclude(balance=0).exists()
    )
    kinds = list(TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert kinds[0] == "started" and kinds[-1] == "finished" and "busted" in kinds
    assert (
        Account.objects.filter(kind=AccountKind.WALLET, chip_type=tournament_chip_type(tournament.pk)).count()
        == 0
    )
    assert_reconciled()
    assert time.monotonic() - began < 30

"""Rebuys and the add-on in multi-table tournaments (docs/rules.md "Rebuys and the add-on"), driven in-process
with instant rounds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from devtools import multi_table_driver as driver
from ledger.models import Account
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, new_multi, register_all
from tests.tournaments.multi_table.rebuys.helpers import bots, paid_in
from tournaments.tournament.models import TournamentEntry, TournamentEvent, TournamentStatus

pytestmark = pytest.mark.django_db


def test_a_rebuy_tournament_played_to_the_end_pays_every_rebuy_and_addon_into_the_pool(
    make_player: Any, admin_user: Any
) -> None:
    tournament = new_multi(
        admin_user,
        instant_rounds=True,
        starting_stack=300,
        pcr_schedule=[5, 10, 20],
        rebuy_levels=3,
        rebuy_cost=100,
        rebuy_fee=10,
        addon_cost=50,
        addon_fee=5,
        addon_chips=500,
        addon_seconds=0,
    )
    users = [make_player(f"r{i}", chips=5000) for i in range(8)]
    register_all(tournament, users)
    driver.drive(
        tournament_id=tournament.pk,
        # Every player at the add-on break takes it: the deals are the CSPRNG's, and at odds of a half the few
        # players left at the break could all decline (they did once, in a full run of the suite).
        after_message=bots(tournament.pk, random.Random(3), rebuy_odds=0.7, addon_odds=1.0),
    )
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    entries = list(TournamentEntry.objects.filter(tournament=tournament))
    rebought = sum(e.rebuys for e in entries)
    addons = sum(e.addon for e in entries)
    assert rebought > 0 and addons > 0
    assert paid_in(tournament, "rebuy") == 100 * rebought
    assert paid_in(tournament, "addon") == 50 * addons
    assert sum(e.prize for e in entries) == 8 * 100 + 100 * rebought + 50 * addons
    assert tournament.pool_account is not None
    assert Account.objects.get(pk=tournament.pool_account.pk).balance == 0
    assert chips_conserved(tournament) == 0
    kinds = set(TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True))
    assert {"rebuy", "addon", "finished"} <= kinds
    assert_reconciled()

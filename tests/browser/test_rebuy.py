"""A player rebuys in a real Chromium, in Italian on a phone (390 px): the tournament page shows the rebuy's terms,
that they have no chips left and the rebuy button (Italian writes 1000 without a separator); after the rebuy their chips are back and the button is gone;
the bounty on each head shows in the standings (docs/rules.md "Rebuys and the add-on", "Progressive knockout")."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import PHONE
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.tournaments.multi_table.helpers import new_multi
from tests.tournaments.multi_table.rebuys.helpers import fund_bounties
from tournaments.multi_table import seating
from tournaments.tournament.models import Tournament, TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_player_rebuys_in_italian_on_a_phone(browser: Any, live_server: Any) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    page = browser("anna", lang="it")
    page.resize(PHONE)
    page.open("/play/")
    page.fill("[data-role=register-username]", "anna")
    page.fill("[data-role=register-password]", "a-long-secret-9")
    page.fill_birth()
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    anna = get_user_model().objects.get(username="anna")
    funded_wallet(anna, 500)
    bruno = make_user("bruno")
    tournament = new_multi(
        boss,
        name="Rebuy della domenica",
        status="running",
        level=1,
        rebuy_levels=1,
        rebuy_cost=100,
        rebuy_fee=10,
        max_rebuys=1,
        bounty_share=50,
    )
    table = seating.open_tournament_table(tournament=tournament)
    entries = {}
    for user, stack in ((anna, 0), (bruno, 1000)):
        entry = TournamentEntry.objects.create(tournament=tournament, player=user)
        seating.seat_entrant(
            tournament=tournament, entry=entry, table=table, stack=stack, key=f"test:{user.pk}"
        )
        entries[user.get_username()] = entry
    Tournament.objects.filter(pk=tournament.pk).update(entrants=2)
    fund_bounties(tournament, entries, 50)

    page.open(f"/play/#/tournament/{tournament.pk}")
    page.wait_present("[data-role=rebuy]", "the rebuy button")
    assert page.text("[data-role=rebuy]") == "Rebuy: 1000 fiches per 110"
    assert "senza fiches" in page.text("[data-role=rebuy-wait]")
    assert page.text("[data-role=rebuy-terms]") == "fino al livello 1: 100 + 10 per 1000 fiches"
    assert (
        page.text("[data-role=standing-row][data-username=anna] [data-role=standing-bounty]") == "taglia 50"
    )
    page.screenshot("rebuy-offered-it-390")
    page.assert_fits("rebuy-offered-it")
    page.assert_accessible("rebuy-offered-it")

    page.click("[data-role=rebuy]")
    page.wait_text(
        "[data-role=standing-row][data-username=anna] [data-role=standing-chips]", "1000", "chips back"
    )
    page.wait_for(
        lambda: not page.find_all("[data-role=rebuy]"), message="one rebuy only: the button is gone"
    )
    assert "1 rebuy" in page.text("[data-role=standing-row][data-username=anna] [data-role=standing-rebuys]")
    page.screenshot("rebuy-done-it-390")
    page.assert_fits("rebuy-done-it")
    page.assert_accessible("rebuy-done-it")
    entry = TournamentEntry.objects.get(pk=entries["anna"].pk)
    assert entry.rebuys == 1
    assert anna.ledger_accounts.get(kind="wallet").balance == 500 - 110
    assert_reconciled()

"""Tickets in a real Chromium, in Italian, on a 390 px phone: a player wins a ticket in a satellite (played by the
bots through the real services), sees it in the wallet, opens its tournament (the format in words) and enters with
the ticket, paying no chips. Every page fits the screen and axe-core finds nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from ledger.selectors import wallet_balance
from tests.browser.conftest import PHONE
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.tournaments.multi_table.helpers import new_multi
from tests.tournaments.single_table.helpers import new_tournament, play_to_the_end
from tournaments.live.messaging import dispatch
from tournaments.tournament import registration
from tournaments.tournament.models import Tournament, TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture(autouse=True)
def _no_message_to_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test deals and plays the satellite itself: no message leaves this process (the worker started for the
    session's other tests would otherwise deal the next round behind the test's back, and the test's own deal
    would find it dealt)."""
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)


@override_settings(RAMINO_NEXT_ROUND_DELAY_SECONDS=0)
def test_an_italian_player_wins_a_ticket_sees_it_in_the_wallet_and_enters_with_it(
    browser: Any, live_server: Any
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    target = new_multi(boss, name="Domenica Multi", buy_in=90, fee=10, tickets_only=True)
    satellite = new_tournament(boss, name="Satellite", kind="quick", max_entrants=2, buy_in=100, fee=0)
    Tournament.objects.filter(pk=satellite.pk).update(satellite_target=target)
    page = browser("giulia", lang="it")
    page.resize(PHONE)
    page.open("/play/")
    page.fill("[data-role=register-username]", "giulia")
    page.fill("[data-role=register-password]", "a-long-secret-9")
    page.fill_birth()
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    giulia = get_user_model().objects.get(username="giulia")
    funded_wallet(giulia, 100)
    bob = make_user("bob")
    funded_wallet(bob, 100)
    # The satellite: pool 200, face value 100: two seats, a ticket each.
    registration.register(user=giulia, tournament_id=satellite.pk)
    registration.register(user=bob, tournament_id=satellite.pk)
    play_to_the_end(satellite)
    assert TournamentEntry.objects.get(tournament=satellite, player=giulia).tickets_won == 1
    assert wallet_balance(user=giulia) == 0

    page.open("/play/#/wallet")
    row = page.wait_present("[data-role=ticket-row]", "the ticket in the wallet")
    assert row.get_attribute("data-count") == "1"
    assert "1 ticket per Domenica Multi" in row.text
    assert "vale 100 fiches" in row.text
    page.assert_fits("wallet-ticket")
    page.assert_accessible("wallet-ticket")

    page.click("[data-role=ticket-row] a")
    page.wait_present("[data-role=register-ticket]", "entering with the ticket offered")
    assert page.text("[data-role=tournament-format]") == "iscrizione solo con ticket"
    assert not page.find_all("[data-role=register]")  # tickets only: no chip entry
    page.assert_fits("tournament-ticket")
    page.assert_accessible("tournament-ticket")
    page.click("[data-role=register-ticket]")
    page.wait_present("[data-role=standing-row][data-username=giulia]", "giulia entered")
    entry = TournamentEntry.objects.get(tournament=target, player=giulia)
    assert entry.ticket == f"ticket:tournament:{target.pk}"
    assert wallet_balance(user=giulia) == 0
    page.open("/play/#/wallet")
    page.wait_present("[data-role=wallet-tickets] .empty", "the ticket spent")
    page.screenshot("wallet-ticket-spent")
    assert_reconciled()

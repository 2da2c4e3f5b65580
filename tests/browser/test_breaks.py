"""Taking a break in a real Chromium, in Italian, on a phone (390 px): a player seated at a table and registered in
a tournament registers with a date of birth (a minor is refused in words first), opens the wallet, chooses a
self-exclusion of 30 days, reads what it means, confirms it, and sees the break while it lasts; the seat is left
with the chips back and the entry refunded. Every step fits the phone and axe-core finds nothing."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.selectors import wallet_balance
from ledger.services import postings
from responsible.breaks.models import Break
from tests.browser.conftest import PHONE
from tests.factories import AdminFactory, MultiTournamentFactory, TableFactory
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Seat, SeatStatus
from tournaments.live.tables import services as tables
from tournaments.tournament import registration
from tournaments.tournament.models import EntryStatus, TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_taking_a_break_in_italian_on_a_phone(browser: Any) -> None:
    page = browser("giulia", lang="it")
    page.resize(PHONE)
    page.open("/play/")
    page.fill("[data-role=register-username]", "giulia")
    page.fill("[data-role=register-password]", "a-long-secret-9")
    # Seventeen: refused in words, nothing created.
    page.fill_birth(f"{date.today().year - 17}-01-01")
    page.click("[data-role=register]")
    page.wait_for(lambda: page.find("[data-role=auth-error]").is_displayed(), message="the refusal shown")
    assert "maggiorenne" in page.text("[data-role=auth-error]")
    assert not get_user_model().objects.filter(username="giulia").exists()
    page.assert_fits("register-minor")
    page.assert_accessible("register-minor")
    page.fill_birth("1990-05-17")
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    giulia = get_user_model().objects.get(username="giulia")
    boss = AdminFactory.create()
    postings.adjust_wallet(
        user=giulia, amount=2_000, reason="welcome", idempotency_key="welcome:giulia", posted_by=boss
    )
    table = TableFactory.create(creator=boss)
    tables.sit(user=giulia, table_id=table.pk, buy_in=500)
    tournament = MultiTournamentFactory.create(created_by=boss)
    registration.register(user=giulia, tournament_id=tournament.pk)
    assert wallet_balance(user=giulia) == 2_000 - 500 - 110

    page.click("[data-role=nav-wallet]")
    page.wait_attribute("[data-role=breaks]", "data-on-break", "false", "the break's choices")
    assert page.text("[data-role=breaks] h2") == "Prenditi una pausa"
    page.assert_fits("break-choices")
    page.assert_accessible("break-choices")
    page.click("[data-role=break-choice][data-kind=self_exclusion][data-days='30']")
    page.click("[data-role=break-next]")
    confirm = page.wait_present("[data-role=break-confirm]:not([hidden])", "the confirmation in words")
    said = confirm.text
    assert "Sei sicuro?" in said and "Non si può accorciare." in said, said
    assert "rimborsate" in said and "portafoglio" in said, said
    assert not Break.objects.exists()
    page.assert_fits("break-confirm")
    page.assert_accessible("break-confirm")
    page.click("[data-role=break-confirm-yes]")
    page.wait_attribute("[data-role=breaks]", "data-on-break", "true", "the break while it lasts")
    assert page.text("[data-role=break-state]").startswith("Ti sei autoescluso dal gioco fino al")
    page.assert_fits("break-state")
    page.assert_accessible("break-state")

    row = Break.objects.get(player=giulia)
    assert row.kind == "self_exclusion" and row.days == 30
    # No round ran: the seat was left at once, the entry refunded, every chip back in the wallet.
    assert Seat.objects.get(table=table, player=giulia).status == SeatStatus.LEFT
    assert (
        TournamentEntry.objects.get(tournament=tournament, player=giulia).status == EntryStatus.UNREGISTERED
    )
    assert wallet_balance(user=giulia) == 2_000
    page.wait_text("[data-role=wallet-balance]", "2000", "the balance")
    assert_reconciled()

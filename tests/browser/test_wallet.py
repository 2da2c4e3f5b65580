"""A new player meets the house grant in a real Chromium, in Italian, on a phone and on a laptop: registers
(with an accented name), is greeted with their welcome chips, and the wallet shows the balance, the history in
words and the daily top-up, claimed with one tap; with the grant off the wallet says chips come from the
site's admins. Every page fits the viewport and axe-core finds nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.models import Transfer, TransferKind
from ledger.selectors import wallet_balance
from ledger.services import grants
from tests.browser.conftest import DESKTOP, PHONE
from tests.ledger.utils import assert_reconciled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


@pytest.mark.parametrize("size", SIZES)
def test_a_new_italian_player_gets_welcome_chips_and_tops_up(browser: Any, size: tuple[int, int]) -> None:
    grants.configure(enabled=True, welcome_chips=1_500, daily_floor=2_000)
    page = browser("niccolo", lang="it")
    page.resize(size)
    page.open("/play/")
    page.fill("[data-role=register-username]", "niccolò")
    page.fill("[data-role=register-password]", "a-long-secret-9")
    page.fill_birth()
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    # Italian groups digits from five on (CLDR): 1500, 10.000.
    page.wait_text(
        "[data-role=flash]",
        "Benvenuto! Hai ricevuto 1500 fiches per iniziare a giocare.",
        "the welcome greeting",
    )
    user = get_user_model().objects.get(username="niccolò")
    assert wallet_balance(user=user) == 1_500

    page.click("[data-role=nav-wallet]")
    page.wait_text("[data-role=wallet-balance]", "1500", "the balance")
    page.wait_attribute("[data-role=chips-hint]", "data-state", "available", "the top-up on offer")
    assert page.text("[data-role=top-up-text]") == (
        "Una volta al giorno puoi ricaricare il portafoglio fino a 2000 fiches."
    )
    assert page.text("[data-role=top-up]") == "Ricevi fiches"
    # The history loads after the balance and the hint.
    welcome = page.wait_present("[data-role=wallet-row]", "the welcome chips in the history")
    assert len(page.find_all("[data-role=wallet-row]")) == 1
    assert welcome.get_attribute("data-kind") == "grant"
    assert "Fiches di benvenuto offerte dal sito" in welcome.text and "+1500" in welcome.text
    page.assert_fits("wallet-available")
    page.assert_accessible("wallet-available")

    page.click("[data-role=top-up]")
    page.wait_text("[data-role=wallet-balance]", "2000", "the balance after the top-up")
    page.wait_attribute("[data-role=chips-hint]", "data-state", "claimed_today", "today's top-up taken")
    assert page.text("[data-role=top-up-text]").startswith(
        "Hai già ricevuto le fiches di oggi. Potrai riceverne altre a partire da"
    )
    assert not page.find_all("[data-role=top-up]")
    page.wait_for(
        lambda: len(page.find_all("[data-role=wallet-row]")) == 2, message="the top-up in the history"
    )
    daily = page.find_all("[data-role=wallet-row]")[0]
    assert "Fiches giornaliere offerte dal sito" in daily.text and "+500" in daily.text
    page.assert_fits("wallet-claimed")
    page.assert_accessible("wallet-claimed")

    assert wallet_balance(user=user) == 2_000
    assert Transfer.objects.filter(kind=TransferKind.GRANT).count() == 2
    assert_reconciled()


@pytest.mark.parametrize("size", SIZES)
def test_without_a_grant_the_wallet_says_chips_come_from_the_admins(
    browser: Any, size: tuple[int, int]
) -> None:
    page = browser("ann")
    page.resize(size)
    page.open("/play/")
    page.fill("[data-role=register-username]", "ann")
    page.fill("[data-role=register-password]", "a-long-secret-9")
    page.fill_birth()
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    page.click("[data-role=nav-wallet]")
    page.wait_attribute("[data-role=chips-hint]", "data-state", "off", "the grant is off")
    assert page.text("[data-role=top-up-text]") == (
        "Chips come from the site's admins: ask them to credit your wallet."
    )
    assert page.text("[data-role=wallet-balance]") == "0"
    assert not page.find_all("[data-role=top-up]")
    page.assert_fits("wallet-off")
    page.assert_accessible("wallet-off")
    assert not Transfer.objects.exists()

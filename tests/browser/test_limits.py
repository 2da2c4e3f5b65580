"""Responsible play in a real Chromium, in Italian on a phone (390 px): the landing page links to the limits, a new
player sets a daily limit while registering, finds it from the wallet, and an hour into a session at a table the
reality check shows the time played and the net result; the player keeps playing and the answer is recorded.
Every page fits the viewport and axe-core finds nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from responsible.limits import selectors
from responsible.sessions.models import RealityCheck
from tests.browser.conftest import PHONE
from tests.factories import TableFactory, fund
from tournaments.live.models import Seat
from tournaments.live.tables import services as tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_an_italian_player_sets_a_limit_at_registration_and_meets_a_reality_check(browser: object) -> None:
    page = browser("giulia", lang="it")  # type: ignore[operator]
    page.resize(PHONE)
    page.open("/")
    assert page.text("[data-link=limits]").startswith("Gioca responsabilmente")
    page.open("/play/")
    page.fill("[data-role=register-username]", "giulia")
    page.fill("[data-role=register-password]", "a-long-secret-9")
    page.fill_birth()
    page.click("[data-role=register-limits] summary")
    page.fill("[data-role=limit-stakes_day]", 500)
    page.assert_fits("register-limits")
    page.assert_accessible("register-limits")
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    user = get_user_model().objects.get(username="giulia")
    assert selectors.in_force(player_id=user.pk, now=timezone.now()) == {"stakes_day": 500}

    page.click("[data-role=nav-wallet]")
    page.click("[data-role=wallet-limits]")
    page.find("[data-role=limits-form]")
    assert page.attribute("[data-role=limit-stakes_day]", "value") == "500"
    assert "In vigore: 500 fiches" in page.text("[data-role=limit-status-stakes_day]")
    page.assert_fits("limits")
    page.assert_accessible("limits")

    # Seated at a table for an hour: the reality check.
    fund(user, 2_000)
    table = TableFactory.create()
    tables.sit(user=user, table_id=table.pk, buy_in=300)
    Seat.objects.filter(player=user).update(sat_at=timezone.now() - timedelta(minutes=61))
    page.open(f"/play/#/table/{table.pk}")
    page.wait_present("[data-role=reality-check]", "the reality check")
    assert page.text("[data-role=reality-check-time]") == "Stai giocando da 1 h 1 min."
    assert page.text("[data-role=reality-check-net]") == "Risultato netto di questa sessione: 0 fiches."
    page.assert_fits("reality-check")
    page.assert_accessible("reality-check")
    page.click("[data-role=reality-check-continue]")
    page.wait_for(
        lambda: RealityCheck.objects.filter(answer="continue").exists(), message="the answer recorded"
    )
    # The answer is recorded before its response reaches the page, which then closes the dialog.
    page.wait_for(lambda: not page.find_all("[data-role=reality-check]"), message="the reality check closed")

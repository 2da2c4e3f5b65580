"""The lobby's tournaments panel in a real Chromium: a player registers for a sit-and-go by clicking (the entry
paid through the ledger), sees it listed as registered, and unregisters (refunded)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.services import accounts, postings
from tests.ledger.utils import assert_reconciled
from tournaments.tournament import setup
from tournaments.tournament.models import TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_player_registers_and_unregisters_from_the_lobby(browser: Any, live_server: Any) -> None:
    boss = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    tournament = setup.create_tournament(
        user=boss,
        settings={
            "name": "Evening sit-and-go",
            "kind": "single",
            "game": "rummy500",
            "options": {},
            "buy_in": 100,
            "fee": 10,
            "max_entrants": 3,
            "target_score": 500,
        },
    )
    ann = browser("ann")
    ann.open("/play/")
    ann.fill("[data-role=register-username]", "ann")
    ann.fill("[data-role=register-password]", "a-long-secret-9")
    ann.click("[data-role=register]")
    ann.find("[data-role=lobby]")
    user = get_user_model().objects.get(username="ann")
    postings.adjust_wallet(
        user=user, amount=500, reason="welcome", idempotency_key="welcome:ann", posted_by=boss
    )
    ann.open("/play/")
    row = f"[data-role=tournament-row][data-tournament='{tournament.pk}']"
    ann.wait_text(f"{row} [data-role=entrants]", "0 / 3", message="the tournament listed")
    ann.click(f"{row} [data-role=register]")
    ann.wait_text(f"{row} [data-role=entrants]", "1 / 3", message="registered")
    ann.find(f"{row} [data-role=unregister]")
    assert TournamentEntry.objects.get(tournament=tournament, player=user).status == "registered"
    assert accounts.get_wallet(user=user).balance == 390
    ann.screenshot("lobby-tournament-registered")
    ann.click(f"{row} [data-role=unregister]")
    ann.wait_text(f"{row} [data-role=entrants]", "0 / 3", message="unregistered")
    assert accounts.get_wallet(user=user).balance == 500
    assert ann.script_errors() == []
    assert_reconciled()

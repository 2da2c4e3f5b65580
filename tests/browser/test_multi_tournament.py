"""A multi-table tournament in a real Chromium: the lobby lists it (status, start, entrants, buy-in) and registers
for it; its page shows the standings (chips, table, place) and the tables, and follows the tournament's events
long-poll: a change shows when an event is recorded, not before."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, transaction
from django.test import override_settings
from django.utils import timezone

from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.multi_table import schedule
from tournaments.multi_table import start as multi_start
from tournaments.tournament import events as tournament_events
from tournaments.tournament.models import Tournament, TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def _record(tournament: Tournament, kind: str, **data: Any) -> None:
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        tournament_events.record(tournament=locked, kind=kind, data=data)


def _sign_up(b: Any, name: str) -> None:
    b.open("/play/")
    b.fill("[data-role=register-username]", name)
    b.fill("[data-role=register-password]", "a-long-secret-9")
    b.fill_birth()
    b.click("[data-role=register]")
    b.find("[data-role=lobby]")


def test_the_lobby_lists_a_multi_tournament_and_registers(browser: Any, live_server: Any) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    t = multi.multi_tournament(boss, name="Sunday Multi", starts_at=timezone.now() + timedelta(hours=2))
    ann = browser("ann")
    _sign_up(ann, "ann")
    funded_wallet(get_user_model().objects.get(username="ann"), 500)
    ann.open("/play/")
    row = f"[data-role=tournament-row][data-tournament='{t.pk}']"
    ann.wait_text(f"{row} [data-role=entrants]", "0 / 1,000", message="the multi tournament listed")
    assert ann.text(f"{row} [data-role=tournament-status]") == "registering"
    assert ann.text(f"{row} [data-role=starts-at]") not in ("", "when full")
    ann.click(f"{row} [data-role=register]")
    ann.wait_text(f"{row} [data-role=entrants]", "1 / 1,000", message="registered")
    ann.click(f"{row} [data-role=open-tournament]")
    ann.wait_present("[data-role=standing-row][data-username=ann]", "ann in the standings")
    assert ann.text("[data-role=standing-row][data-username=ann] [data-role=standing-status]") == "registered"
    ann.click("[data-role=unregister]")
    ann.wait_present("[data-role=standings-empty]", "unregistered: nobody left")
    ann.screenshot("multi-unregistered")
    assert_reconciled()


def test_a_running_tournaments_standings_update_after_an_event(browser: Any, live_server: Any) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    people: dict[str, Any] = {}
    for name in ("ann", "bob", "cat", "dan"):
        people[name] = make_user(name)
        funded_wallet(people[name], 1000)
    t = multi.multi_tournament(boss, name="Live Multi")
    multi.register_all(t, list(people.values()))
    one, two = multi.start(t, sizes=[2, 2])
    multi.play_round(one, 3)
    viewer = browser("viewer")
    _sign_up(viewer, "viewer")
    viewer.open(f"/play/#/tournament/{t.pk}")
    ann_row = "[data-role=standing-row][data-username=ann]"
    viewer.wait_text(f"{ann_row} [data-role=standing-chips]", "1,000", message="ann's stack shown")
    assert viewer.text(f"{ann_row} [data-role=standing-table]") == f"#{one.pk}"
    assert viewer.text("[data-role=tournament-status]") == "running"
    tables = viewer.find_all("[data-role=tournament-table-row]")
    assert [r.get_attribute("data-table") for r in tables] == [str(one.pk), str(two.pk)]
    assert (
        viewer.text(f"[data-role=tournament-table-row][data-table='{one.pk}'] [data-role=table-level]") == "2"
    )
    viewer.screenshot("multi-standings")

    # ann takes bob's whole stack: nothing shows until the tournament's event log moves.
    multi.bust(t, loser=people["bob"], winner=people["ann"], place=4, key="bust-bob")
    time.sleep(2.5)
    assert viewer.text(f"{ann_row} [data-role=standing-chips]") == "1,000"
    bob_entry = TournamentEntry.objects.get(tournament=t, player=people["bob"])
    _record(t, "busted", players=[{"entry": bob_entry.pk, "player": "bob", "place": 4}])
    viewer.wait_text(
        f"{ann_row} [data-role=standing-chips]", "2,000", message="the event refreshed the standings"
    )
    bob_row = "[data-role=standing-row][data-username=bob]"
    assert viewer.text(f"{bob_row} [data-role=standing-status]") == "out"
    assert viewer.text(f"{bob_row} [data-role=standing-place]") == "4"
    assert viewer.text(f"{bob_row} [data-role=standing-chips]") == "0"
    names = [e.text for e in viewer.find_all("[data-role=standing-name]")]
    assert names[0] == "ann" and names[-1] == "bob"
    viewer.screenshot("multi-standings-updated")
    assert_reconciled()


def test_a_scheduled_start_that_failed_is_told_in_words_on_the_page_and_in_the_lobby(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    people = [make_user(name) for name in ("ann", "bob")]
    for person in people:
        funded_wallet(person, 1000)
    t = multi.multi_tournament(boss, name="Broken Multi")
    multi.register_all(t, people)

    def broken(**kwargs: Any) -> None:
        raise OperationalError("the database restarted")

    monkeypatch.setattr(multi_start, "seat_tables", broken)
    assert t.starts_at is not None
    assert schedule.run_schedule(now=t.starts_at)["failed"] == 1
    ann = browser("viewer")
    _sign_up(ann, "viewer")
    ann.open(f"/play/#/tournament/{t.pk}")
    ann.wait_present("[data-role=tournament-error]", "the delayed start said")
    assert "trying again" in ann.text("[data-role=tournament-error]")
    assert ann.text("[data-role=tournament-status]") == "registering"
    assert "OperationalError" in ann.text("[data-role=tournament-error]")

    with override_settings(RAMINO_TOURNAMENT_START_ATTEMPTS=2):
        assert schedule.run_schedule(now=t.starts_at)["cancelled"] == 1
    ann.wait_text("[data-role=tournament-status]", "cancelled", message="the cancellation followed live")
    said = ann.text("[data-role=tournament-error]")
    assert "could not start" in said and "buy-in and fee back" in said
    ann.screenshot("multi-start-failed")
    ann.open("/play/")
    row = f"[data-role=tournament-row][data-tournament='{t.pk}']"
    ann.wait_text(f"{row} [data-role=tournament-status]", "cancelled: could not start (refunded)")
    assert_reconciled()

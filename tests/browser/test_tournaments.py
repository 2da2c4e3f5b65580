"""The lobby and the tournament pages in a real Chromium, at a phone's and a laptop's size, in Italian and English:
a player registers for a sit-and-go by clicking (the entry paid through the ledger) and unregisters (refunded);
the lobby updates by itself when someone sits or registers; a sit-and-go filling up alerts its players on
whatever page they are and the alert leads to the table; a one-table tournament's page follows its rounds to
the places and prizes; the page shows the structure, payouts with amounts, entrants and countdowns; a cancelled
one says so. Each page fits the screen and axe-core finds nothing."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from selenium.webdriver.common.keys import Keys

from ledger.services import accounts, postings
from tests.browser.conftest import DESKTOP, PHONE
from tests.factories import PASSWORD, TableFactory
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.tournaments.multi_table.reads import helpers as multi
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.live.models import Table
from tournaments.live.tables import services as tables
from tournaments.tournament import admin_actions, registration, setup
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
    ann.fill_birth()
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


# ---- the live lobby, the start alert, the tournament page (issue 21 item 4) ----

SIZES = [pytest.param(PHONE, "it", id="phone-it"), pytest.param(DESKTOP, "en", id="desktop-en")]


def _player(name: str, chips: int = 1000) -> Any:
    user = make_user(name)
    funded_wallet(user, chips)
    return user


def _signed_in(browser: Any, name: str, *, lang: str, size: tuple[int, int]) -> Any:
    """A browser signed in as `name` (created by the test) through the sign-in form, at `size`."""
    b = browser(name, lang=lang)
    b.resize(size)
    b.open("/play/")
    b.fill("[data-role=sign-in-username]", name)
    b.fill("[data-role=sign-in-password]", PASSWORD)
    b.click("[data-role=sign-in]")
    b.find("[data-role=lobby]")
    return b


def _check_page(b: Any, label: str) -> None:
    b.assert_fits(label)
    b.assert_accessible(label)


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_the_lobby_updates_by_itself_when_someone_sits_or_registers(
    browser: Any, live_server: Any, size: tuple[int, int], lang: str
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    table = TableFactory.create(creator=boss, seats=2, pcr=1, min_buy_in=100, max_buy_in=500)
    tournament = new_tournament(boss, name="Serata sit-and-go", max_entrants=3)
    _player("ann")
    bob, cid = _player("bob"), _player("cid")
    ann = _signed_in(browser, "ann", lang=lang, size=size)
    table_row = f"[data-role=table-row][data-table='{table.pk}']"
    row = f"[data-role=tournament-row][data-tournament='{tournament.pk}']"
    ann.wait_text(f"{table_row} [data-role=seats]", "0 / 2", message="the table listed")
    ann.wait_text(f"{row} [data-role=entrants]", "0 / 3", message="the tournament listed")
    _check_page(ann, f"lobby-{lang}")

    tables.sit(user=bob, table_id=table.pk, buy_in=200)
    ann.wait_text(f"{table_row} [data-role=seats]", "1 / 2", message="bob's seat shown without a reload")
    assert "bob" in ann.text(f"{table_row} [data-role=players]")
    registration.register(user=cid, tournament_id=tournament.pk)
    ann.wait_text(f"{row} [data-role=entrants]", "1 / 3", message="cid's entry shown without a reload")
    assert ann.text(f"{row} [data-role=tournament-status]") == (
        "iscrizioni aperte" if lang == "it" else "registering"
    )
    # Still the same page: nothing reloaded it (the page's own counter of refreshes moved instead).
    assert int(ann.attribute("[data-role=lobby]", "data-refreshed")) >= 2
    _check_page(ann, f"lobby-updated-{lang}")
    assert_reconciled()


def test_a_sit_and_go_filling_up_alerts_its_players_on_any_page_and_leads_to_the_table(
    browser: Any, live_server: Any
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    tournament = new_tournament(boss, name="Sit-and-go delle nove", max_entrants=3)
    _player("ann")
    _player("bob")
    cid = _player("cid")
    # ann (Italian, a phone) waits in the lobby; bob (English, a laptop) reads his wallet.
    ann = _signed_in(browser, "ann", lang="it", size=PHONE)
    row = f"[data-role=tournament-row][data-tournament='{tournament.pk}']"
    ann.click(f"{row} [data-role=register]")
    ann.wait_text(f"{row} [data-role=entrants]", "1 / 3", message="ann registered")
    bob = _signed_in(browser, "bob", lang="en", size=DESKTOP)
    bob.click(f"{row} [data-role=register]")
    bob.wait_text(f"{row} [data-role=entrants]", "2 / 3", message="bob registered")
    bob.open("/play/#/wallet")
    bob.wait_attribute("body", "data-page", "wallet", message="bob on his wallet")
    assert ann.find_all("[data-role=start-alert]") == []

    registration.register(user=cid, tournament_id=tournament.pk)  # the last seat: it starts
    table = Table.objects.get(tournament=tournament)
    for b, words in ((ann, "Il tuo torneo è iniziato."), (bob, "Your tournament has started.")):
        alert = b.wait_present("[data-role=start-alert]", "the start alert", timeout=15)
        assert alert.get_attribute("role") == "alert"
        assert words in alert.text and tournament.name in alert.text
        go = b.find("[data-role=start-alert] [data-role=go-to-table]")
        assert b.driver.switch_to.active_element == go, "the button to the table has the focus"
    assert ann.text("[data-role=go-to-table]") == "Vai al tuo tavolo"
    _check_page(ann, "start-alert-it")
    _check_page(bob, "start-alert-en")

    ann.click("[data-role=go-to-table]")
    ann.wait_attribute("body", "data-page", "table", message="ann at her table")
    assert ann.driver.execute_script("return location.hash") == f"#/table/{table.pk}"
    assert ann.find_all("[data-role=start-alert]") == []
    bob.find("[data-role=go-to-table]").send_keys(Keys.ENTER)  # by keyboard
    bob.wait_attribute("body", "data-page", "table", message="bob at his table")
    assert bob.driver.execute_script("return location.hash") == f"#/table/{table.pk}"
    # Acknowledged: going back to the lobby does not alert again.
    ann.open("/play/#/lobby")
    ann.find("[data-role=lobby]")
    time.sleep(4)
    assert ann.find_all("[data-role=start-alert]") == []
    assert_reconciled()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_a_single_table_tournament_page_follows_its_rounds_to_places_and_prizes(
    browser: Any, live_server: Any, celery_worker_process: Any, size: tuple[int, int], lang: str
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    # The server plays every turn: one timeout and a player is absent, auto-played at once (the worker deals,
    # runs the clocks and the after-round job).
    clocks = {"turn_seconds": 1, "time_bank_seconds": 0, "max_timeouts": 1, "max_timeouts_per_round": 1}
    tournament = new_tournament(
        boss,
        name="Rapida a due mani",
        kind="quick",
        rounds=2,
        max_entrants=2,
        payouts=[70, 30],
        options=clocks,
    )
    people = [_player("ann"), _player("bob")]
    viewer = _signed_in(browser, "ann", lang=lang, size=size)
    viewer.open(f"/play/#/tournament/{tournament.pk}")
    viewer.wait_present("[data-role=payout-row][data-place='1']", "the payout table")
    assert viewer.text("[data-role=standings-empty]") == (
        "Ancora nessun iscritto." if lang == "it" else "Nobody has registered yet."
    )
    for person in people:
        registration.register(user=person, tournament_id=tournament.pk)
    # ann watches the tournament's own page: the start alert shows there too, with her table.
    alert = viewer.wait_present("[data-role=start-alert]", "the start alert on the tournament page")
    assert alert.get_attribute("data-table") == str(Table.objects.get(tournament=tournament).pk)
    viewer.wait_present("[data-role=last-round]", "the first round's result, live", timeout=90)
    first = viewer.attribute("[data-role=last-round]", "data-round")
    assert first in ("1", "2")
    viewer.screenshot(f"quick-after-a-round-{lang}")
    viewer.wait_present("[data-role=tournament-results]", "the end, live", timeout=90)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    entries = {e.player.username: e for e in TournamentEntry.objects.filter(tournament=tournament)}
    for name, entry in entries.items():
        row = f"[data-role=standing-row][data-username={name}]"
        assert viewer.text(f"{row} [data-role=standing-place]") == str(entry.place)
        prize = viewer.text(f"{row} [data-role=standing-prize]")
        assert prize == (f"{entry.prize}" if entry.prize else "\u2013")
    me = entries["ann"]
    said = viewer.text("[data-role=my-result]")
    assert f" {me.place}" in said
    assert viewer.text("[data-role=tournament-status]") == ("concluso" if lang == "it" else "finished")
    _check_page(viewer, f"quick-finished-{lang}")
    assert_reconciled()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_the_tournament_page_shows_structure_payouts_entrants_and_countdowns(
    browser: Any, live_server: Any, size: tuple[int, int], lang: str
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    t = multi.multi_tournament(
        boss,
        name="Domenica Multi",
        starts_at=timezone.now() + timedelta(hours=2, minutes=30),
        pcr_schedule=[1, 2, 5],
        rounds_per_level=3,
        payouts=[50, 30, 20],
        late_registration_levels=2,
    )
    multi.register_all(t, [_player(n) for n in ("dan", "eve", "fay", "gus")])
    _player("ann")
    viewer = _signed_in(browser, "ann", lang=lang, size=size)
    viewer.open(f"/play/#/tournament/{t.pk}")
    viewer.wait_present("[data-role=level-row][data-level='3']", "the levels")
    assert [e.text for e in viewer.find_all("[data-role=level-pcr]")] == ["1", "2", "5"]
    rounds = [e.text for e in viewer.find_all("[data-role=level-rounds]")]
    assert rounds[:2] == ["3", "3"] and rounds[2].startswith("3, ")
    # Four entrants at 100: a pool of 400, 50/30/20.
    assert [e.text for e in viewer.find_all("[data-role=payout-amount]")] == ["200", "120", "80"]
    names = sorted(e.text for e in viewer.find_all("[data-role=standing-name]"))
    assert names == ["dan", "eve", "fay", "gus"]
    countdown = viewer.text("[data-role=countdown-start]")
    assert countdown.startswith("tra 2 h 2" if lang == "it" else "in 2 h 2"), countdown
    viewer.wait_for(lambda: viewer.text("[data-role=countdown-start]") != countdown, 5, "the countdown ticks")
    late = viewer.text("[data-role=countdown-late]")
    assert ("livello 2" if lang == "it" else "level 2") in late
    _check_page(viewer, f"tournament-structure-{lang}")
    # The lobby on the same phone: the registration button in reach.
    viewer.open("/play/#/lobby")
    row = f"[data-role=tournament-row][data-tournament='{t.pk}']"
    viewer.wait_present(f"{row} [data-role=register]", "the lobby's row")
    button = viewer.find(f"{row} [data-role=register]")
    right = viewer.driver.execute_script("return arguments[0].getBoundingClientRect().right", button)
    assert right <= size[0], "Register is on the screen"
    _check_page(viewer, f"lobby-multi-{lang}")


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_a_cancelled_sit_and_go_says_so_and_that_entries_were_refunded(
    browser: Any, live_server: Any, size: tuple[int, int], lang: str
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    tournament = new_tournament(boss, name="Annullato", max_entrants=3)
    ann = _player("ann", chips=500)
    registration.register(user=ann, tournament_id=tournament.pk)
    viewer = _signed_in(browser, "ann", lang=lang, size=size)
    viewer.open(f"/play/#/tournament/{tournament.pk}")
    viewer.wait_present("[data-role=standing-row][data-username=ann]", "ann registered")
    admin_actions.cancel(tournament_id=tournament.pk)
    viewer.wait_present("[data-role=tournament-cancelled]", "the cancellation, live")
    said = viewer.text("[data-role=tournament-cancelled]")
    if lang == "it":
        assert "annullato" in said and "rimborsate" in said
    else:
        assert "was cancelled" in said and "refunded" in said
    empty = viewer.text("[data-role=standings-empty]")
    assert empty != ("Ancora nessun iscritto." if lang == "it" else "Nobody has registered yet.")
    assert accounts.get_wallet(user=ann).balance == 500
    _check_page(viewer, f"tournament-cancelled-{lang}")
    assert_reconciled()


@pytest.mark.parametrize(("size", "lang"), SIZES)
def test_your_turn_shows_in_the_tab_title_and_the_sound_is_on_until_turned_off(
    browser: Any, live_server: Any, size: tuple[int, int], lang: str
) -> None:
    _player("ann")
    b = _signed_in(browser, "ann", lang=lang, size=size)
    title = b.driver.title
    prefix = "(Tocca a te) " if lang == "it" else "(Your turn) "
    b.driver.execute_script("Ramino.notify.yourTurn(true)")
    assert b.driver.title == prefix + title
    # the sound is on by default: "your turn" played its tone (WebAudio; a headless browser records it)
    assert b.driver.execute_script("return Ramino.notify.played") == ["turn"]
    b.driver.execute_script("Ramino.notify.yourTurn(true)")  # twice: one prefix, one tone
    assert b.driver.title == prefix + title
    assert b.driver.execute_script("return Ramino.notify.played") == ["turn"]
    b.driver.execute_script("Ramino.notify.yourTurn(false)")
    assert b.driver.title == title
    toggle = "[data-role=sound-toggle]"
    assert b.attribute(toggle, "aria-pressed") == "true"
    assert b.text(toggle) == ("Suono: sì" if lang == "it" else "Sound: on")
    b.click(toggle)  # the one switch: every sound off
    assert b.attribute(toggle, "aria-pressed") == "false"
    assert b.driver.execute_script("return localStorage.getItem('ramino.sound')") == "off"
    b.open("/play/#/wallet")  # remembered across pages and loads
    b.wait_attribute(toggle, "aria-pressed", "false", message="the sound stays off")
    b.driver.execute_script("Ramino.notify.yourTurn(true)")  # with the sound off: no tone
    assert b.driver.title.startswith(prefix)
    assert b.driver.execute_script("return Ramino.notify.played") == []
    b.driver.execute_script("Ramino.notify.yourTurn(false)")
    b.click(toggle)  # and on again
    b.wait_attribute(toggle, "aria-pressed", "true", message="the sound on again")
    b.open("/play/#/lobby")
    b.wait_attribute(toggle, "aria-pressed", "true", message="the sound still on")
    b.find("[data-role=lobby]")
    _check_page(b, f"sound-on-{lang}")

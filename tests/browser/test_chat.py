"""The chat panel in Chromium, in Italian on a 390 px phone (docs/web.md "Chat"): at a table it is a drawer
opened by a button; a quick phrase sent by one player reaches the other, who reports it; muting hides a
player's messages; the tournament page shows its room inline. The page fits the phone and axe-core finds
nothing with the drawer open."""

from __future__ import annotations

import json
from typing import Any

import pytest
from knox.models import AuthToken

from chat.models import Report
from tests.browser.conftest import PHONE, Browser
from tests.clients import api_client
from tests.factories import PlayerFactory, TableFactory, TournamentFactory
from tournaments.tournament.models import EntryStatus, TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def contains(page: Browser, css: str, text: str, message: str, timeout: float = 15) -> None:
    page.wait_for(lambda: text in page.text(css), timeout, message)


def _signed_in(browser: Any, user: Any) -> Browser:
    page: Browser = browser(user.username, lang="it")
    page.resize(PHONE)
    page.open("/play/")
    session = json.dumps({"token": AuthToken.objects.create(user)[1], "username": user.username})
    page.driver.execute_script("sessionStorage.setItem('ramino.session', arguments[0]);", session)
    return page


def test_two_players_chat_at_a_table_on_a_phone_in_italian(browser: Any) -> None:
    boss = PlayerFactory.create(username="boss", is_staff=True, is_superuser=True)
    ann, bob = (PlayerFactory.create(username=name, chips=5_000) for name in ("ann", "bob"))
    table = TableFactory.create(creator=boss)
    for user in (ann, bob):
        assert api_client(user).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200}).status_code == 200
    pages = {name: _signed_in(browser, user) for name, user in (("ann", ann), ("bob", bob))}
    for page in pages.values():
        page.open(f"/play/#/table/{table.pk}")
        page.wait_present("[data-role=chat-toggle]", "the chat's button")
    ann_page, bob_page = pages["ann"], pages["bob"]
    ann_page.click("[data-role=chat-toggle]")
    ann_page.wait_attribute("[data-role=chat-toggle]", "aria-expanded", "true", "the drawer opened")
    phrase = ann_page.find("[data-role=chat-phrase][data-phrase=good_luck]")
    assert phrase.text == "Buona fortuna"
    phrase.click()
    contains(ann_page, "[data-role=chat-messages]", "Buona fortuna", "ann's own message")
    ann_page.fill("[data-role=chat-input]", "Ciao Bob, che si gioca?")
    ann_page.click("[data-role=chat-send]")
    contains(ann_page, "[data-role=chat-messages]", "Ciao Bob", "ann's typed message")
    ann_page.assert_fits("table-chat-open")
    ann_page.assert_accessible("table-chat-open")
    # bob's button counts the messages he has not seen; opening the drawer shows them.
    contains(bob_page, "[data-role=chat-unread]", "2", "bob's unread count", timeout=20)
    bob_page.click("[data-role=chat-toggle]")
    contains(bob_page, "[data-role=chat-messages]", "Buona fortuna", "ann's phrase at bob's")
    bob_page.click("[data-role=chat-message] summary")
    bob_page.click("[data-role=chat-report]")
    contains(bob_page, "[data-role=chat-status]", "segnalato", "the report acknowledged")
    assert Report.objects.get().reporter == bob
    # Muting ann (the same menu, still open) hides her messages from bob.
    bob_page.click("[data-role=chat-mute]")
    contains(bob_page, "[data-role=chat-status]", "silenziato", "the mute acknowledged")
    assert bob_page.find_all("[data-role=chat-message]") == []
    bob_page.assert_accessible("table-chat-after-mute")


def test_a_tournament_page_shows_its_room(browser: Any) -> None:
    cid = PlayerFactory.create(username="cid")
    tournament = TournamentFactory.create()
    TournamentEntry.objects.create(tournament=tournament, player=cid, status=EntryStatus.REGISTERED)
    page = _signed_in(browser, cid)
    page.open(f"/play/#/tournament/{tournament.pk}")
    page.wait_present("[data-role=chat] [data-role=chat-form]", "the tournament's chat")
    page.find("[data-role=chat-phrase][data-phrase=have_fun]").click()
    contains(page, "[data-role=chat-messages]", "Divertitevi", "the phrase in the room")
    page.assert_fits("tournament-chat")
    page.assert_accessible("tournament-chat")

"""Issue 35's results and lobby, played in Chromium (Italian at 390x844, English at 1366x900): the results panel tells
the round (why it ended, each player's melded and held cards, points and chips in words) with the deal's seal,
verified in the page, its hash, salt and deck behind "Details", and no commitment on the page while a round runs;
the lobby's filters narrow the open tables; "Play now" seats the player at the table where a player waits. Each page
fits and passes axe-core."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tests.browser.conftest import DESKTOP, PHONE, Browser
from tests.factories import PlayerFactory, TableFactory
from tests.ledger.utils import assert_reconciled
from tests.tournaments.practice.helpers import play_out_round
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Round, Seat
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables
from tournaments.practice import services as practice

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "una-parola-lunga-9"


def _person(name: str, chips: int = 0) -> Any:
    user = PlayerFactory.create(username=name, chips=chips)
    user.set_password(PASSWORD)
    user.save()
    return user


def _signed_in(browser: Any, name: str, lang: str, size: tuple[int, int]) -> Browser:
    page: Browser = browser(name, lang=lang)
    page.resize(size)
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", name)
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")
    return page


def _check(page: Browser, label: str) -> None:
    page.assert_fits(label)
    page.assert_accessible(label)


@pytest.mark.parametrize(("lang", "size"), [("it", PHONE), ("en", DESKTOP)], ids=["it-phone", "en-laptop"])
def test_the_results_tell_the_round_and_the_seal_verifies_the_deal(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch, lang: str, size: tuple[int, int]
) -> None:
    # The round is played here, in the test's process (no message leaves it): the player greedily, two bots.
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)
    giulia = _person("giulia")
    page = _signed_in(browser, "giulia", lang, size)
    table = practice.start_practice(player=giulia, game="rummy500", bots=2, level="easy")
    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk).update(next_round_at=timezone.now())
    assert round_start.start_round(game_id=game.pk) is not None

    # while the round runs, the page shows no commitment, salt or deck
    page.open(f"/play/#/table/{table.pk}")
    page.wait_present("[data-role=hand]", "the dealt hand")
    assert not page.find_all("[data-role=commitment]") and not page.find_all("[data-role=salt]")
    assert not page.find_all("[data-role=seal]")

    round_ = play_out_round(game_id=game.pk, player=giulia)
    assert round_.ended_at is not None
    round_ = Round.objects.get(pk=round_.pk)
    assert round_.result is not None and round_.deck is not None
    details = round_.result["details"]
    page.open(f"/play/#/table/{table.pk}")
    panel = page.wait_present("[data-role=results]", "the round's results")
    # why the round ended, in words
    reason = page.text("[data-role=results] [data-role=result-reason]")
    assert reason, "the reason is said"
    if details["reason"] == "out":
        assert details["went_out"] in reason
    # each player: what they melded and still held, as cards with their names in words
    players = page.find_all("[data-role=results] [data-role=result-player]")
    assert [p.get_attribute("data-username") for p in players] == list(round_.players)
    for row in players:
        name = row.get_attribute("data-username")
        mine = details["players"][name]
        held = row.find_elements("css selector", "[data-role=result-held] .card")
        melded = row.find_elements("css selector", "[data-role=result-melded] .card")
        assert len(held) == len(mine["hand"]), name
        assert len(melded) == len(mine["placed"]), name
        assert row.find_element("css selector", "[data-role=result-score-words]").text
    # practice moves no chips: no chips line, and the sentences say so
    assert not page.find_all("[data-role=results] [data-role=result-chips]")
    # the seal, verified in the page by itself
    page.wait_attribute("[data-role=results] [data-role=seal]", "data-state", "verified", "the deal verified")
    words = page.text("[data-role=results] [data-role=seal-words]")
    assert words == ("Mano verificata" if lang == "it" else "Deal verified")
    page.screenshot("results")
    _check(page, "results")
    # behind Details: the commitment as published, the same hash computed here, the salt and the deck
    page.find("[data-role=results] [data-role=seal-details] summary").click()
    assert page.text("[data-role=results] [data-role=commitment]") == round_.deal_commitment
    assert page.text("[data-role=results] [data-role=seal-computed]") == round_.deal_commitment
    assert page.text("[data-role=results] [data-role=salt]") == round_.salt
    assert len(panel.find_elements("css selector", "[data-role=seal-details] .card")) == len(round_.deck)
    page.screenshot("seal-details")
    _check(page, "seal-details")
    # the round history carries the same seal, not a bare commitment
    page.wait_attribute("[data-role=round] [data-role=seal]", "data-state", "verified", "the history's seal")
    assert not page.find_all("[data-role=verify]")


def test_a_tampered_deal_is_never_called_verified(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)
    giulia = _person("giulia")
    page = _signed_in(browser, "giulia", "en", DESKTOP)
    table = practice.start_practice(player=giulia, game="rummy500", bots=1, level="easy")
    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk).update(next_round_at=timezone.now())
    assert round_start.start_round(game_id=game.pk) is not None
    round_ = play_out_round(game_id=game.pk, player=giulia)
    Round.objects.filter(pk=round_.pk).update(salt="not-the-salt")
    page.open(f"/play/#/table/{table.pk}")
    page.wait_attribute("[data-role=results] [data-role=seal]", "data-state", "mismatch", "the mismatch")
    assert "does not match" in page.text("[data-role=results] [data-role=seal-words]")


@pytest.mark.parametrize(("lang", "size"), [("it", PHONE), ("en", DESKTOP)], ids=["it-phone", "en-laptop"])
def test_the_lobby_filters_and_play_now_seats_the_player_where_a_player_waits(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch, lang: str, size: tuple[int, int]
) -> None:
    # no round is dealt by a worker: the tables stay as the test set them
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)
    empty = TableFactory.create(pcr=2)
    waiting = TableFactory.create(pcr=2)
    other_stake = TableFactory.create(pcr=5)
    basic = TableFactory.create(game="basic", pcr=2, seats=2)
    anna = _person("anna", chips=5_000)
    tables.sit(user=anna, table_id=waiting.pk, buy_in=300)
    _person("marco", chips=5_000)
    page = _signed_in(browser, "marco", lang, size)

    def listed() -> list[int]:
        return [
            int(r.get_attribute("data-table") or 0)
            for r in page.find_all("[data-role=tables] [data-role=table-row]")
        ]

    page.wait_for(lambda: len(listed()) == 4, message="every open table listed")
    _check(page, "lobby-with-play-now")
    # the filters: the game, the stake, the free seats
    page.driver.execute_script(
        "const s = document.querySelector('[data-role=filter-game]'); s.value = 'basic';"
        "s.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    page.wait_for(lambda: listed() == [basic.pk], message="only Basic Rummy's table")
    page.driver.execute_script(
        "const s = document.querySelector('[data-role=filter-game]'); s.value = '';"
        "s.dispatchEvent(new Event('change', {bubbles: true}));"
        "const k = document.querySelector('[data-role=filter-stake]'); k.value = '2';"
        "k.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    page.wait_for(lambda: listed() == [empty.pk, waiting.pk, basic.pk], message="the stake of 2")
    page.driver.execute_script(
        "const s = document.querySelector('[data-role=filter-free-seats]'); s.value = '3';"
        "s.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    page.wait_for(lambda: listed() == [empty.pk, waiting.pk], message="three free seats")
    page.screenshot("filtered")
    _check(page, "lobby-filtered")
    assert other_stake.pk not in listed()

    # play now: Rummy 500 at 2 chips a point; the table where anna waits
    page.driver.execute_script(
        "const k = document.querySelector('[data-role=play-now-stake]'); k.value = '2';"
        "k.dispatchEvent(new Event('change', {bubbles: true}));"
    )
    page.click("[data-role=play-now]")
    page.wait_for(
        lambda: page.driver.execute_script("return location.hash") == f"#/table/{waiting.pk}",
        message="the table",
    )
    page.wait_present(f"[data-role=table-page][data-table='{waiting.pk}']", "the table page")
    seat = Seat.objects.get(player__username="marco")
    assert seat.table_id == waiting.pk and seat.stack_account.balance == waiting.min_buy_in
    page.screenshot("seated")
    _check(page, "seated-by-play-now")
    assert_reconciled()


def test_play_now_says_why_when_no_table_has_a_seat(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dispatch, "enqueue", lambda name, args, countdown, queue=None: None)
    TableFactory.create(game="basic")
    _person("marco", chips=5_000)
    page = _signed_in(browser, "marco", "it", PHONE)
    page.click("[data-role=play-now]")  # Rummy 500 by default: no table
    page.wait_for(
        lambda: "Nessun tavolo aperto" in page.text("[data-role=play-now-status]"),
        message="the refusal in Italian",
    )
    # A table at a stake the lobby has not seen: the form is drawn again with it, and the refusal stays.
    TableFactory.create(game="basic", pcr=7)
    page.wait_present("[data-role=play-now-stake] option[value='7']", "the new stake in play now's choices")
    assert "Nessun tavolo aperto" in page.text("[data-role=play-now-status]")
    assert not Seat.objects.exists()
    _check(page, "play-now-refused")

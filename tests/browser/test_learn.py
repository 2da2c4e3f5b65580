"""The how-to-play pages in a real browser: every preset's page in Italian on a phone (390x844) shows its rules and
every picture of its stacked round, fits the screen and passes axe-core; in English on a laptop, a player follows
"How to play" from the landing page and from the lobby, and Rummy 500's page leads to the demo. The contract's
client route #/learn/PRESET lands on the same page."""

from __future__ import annotations

from typing import Any

import pytest

from play.learn import frames
from play.learn.pages import PRESETS
from tests.browser.conftest import DESKTOP, PHONE, Browser
from tests.factories import PASSWORD, PlayerFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def _shows_the_whole_page(page: Browser, preset: str, lang: str) -> None:
    page.wait_present(f"main[data-role=learn][data-preset={preset}]")
    assert page.attribute("html", "lang") == lang
    shown = [f.get_attribute("data-key") for f in page.find_all("[data-role=frame]")]
    assert shown == [f.key for f in frames(preset)]
    assert len(page.find_all("[data-role=learn-rules] h3")) >= 5
    assert page.find_all("[data-role=scores] tbody tr")  # the round's result, one row a player


def test_every_page_in_italian_on_a_phone(browser: Any) -> None:
    page: Browser = browser("lucia", lang="it")
    page.resize(PHONE)
    problems = []
    for preset in PRESETS:
        page.open(f"/play/learn/{preset}/")
        _shows_the_whole_page(page, preset, "it")
        assert page.text("h1").startswith("Come si gioca a")
        for check in (page.assert_fits, page.assert_accessible):
            try:
                check(f"learn-{preset}")
            except AssertionError as found:
                problems.append(str(found))
    assert problems == [], "\n".join(problems)


def test_from_the_landing_page_and_the_lobby_in_english_on_a_laptop(browser: Any) -> None:
    PlayerFactory.create(username="ann", password=PASSWORD)
    page: Browser = browser("ann")
    page.resize(DESKTOP)
    page.open("/")
    page.click("[data-role=landing-games] [data-role=learn-link][data-game=rummy500]")
    _shows_the_whole_page(page, "rummy500", "en")
    assert page.text("h1") == "How to play Rummy 500"
    caption = page.text("[data-role=frame][data-key=set] [data-role=caption]")
    assert "You lay down a set: 7 of spades, 7 of hearts, 7 of diamonds" in caption
    assert page.attribute("[data-role=link-demo]", "href").endswith("/play/#/demo")
    page.assert_fits("learn-rummy500")
    page.assert_accessible("learn-rummy500")

    # the lobby lists every game's page; #/learn/PRESET (the contract's client route) lands on it too
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", "ann")
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.wait_present("[data-role=learn-links] [data-role=learn-link]")
    linked = [
        a.get_attribute("data-game") for a in page.find_all("[data-role=learn-links] [data-role=learn-link]")
    ]
    assert linked == list(PRESETS)
    page.click("[data-role=learn-links] [data-role=learn-link][data-game=board]")
    _shows_the_whole_page(page, "board", "en")
    assert "The trump tile is the red 13" in page.text("[data-role=frame][data-key=deal] [data-role=caption]")
    page.assert_accessible("learn-board")
    page.open("/play/#/learn/romme")
    _shows_the_whole_page(page, "romme", "en")

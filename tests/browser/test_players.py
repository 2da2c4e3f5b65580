"""A player's profile (ratings, the rating chart, recent games, tournaments) and the leaderboards, in the player
client, in Italian and English, at phone and laptop size, axe-core clean."""

from __future__ import annotations

from typing import Any

import pytest

from ratings import services
from tests.browser.conftest import DESKTOP, PHONE, Browser
from tests.factories import PlayerFactory, TableFactory
from tests.ratings.conftest import finish_round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "a-long-secret-9"


def _sign_in(page: Browser, name: str) -> None:
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", name)
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")


@pytest.fixture
def rated(settings: Any) -> dict[str, Any]:
    settings.RAMINO_RATINGS_PROVISIONAL_GAMES = 3
    users = {name: PlayerFactory.create(username=name, password=PASSWORD) for name in ("ann", "bob", "cid")}
    table = TableFactory.create()
    for scores in (
        {"ann": 40, "bob": -20, "cid": 0},
        {"ann": 10, "bob": 5, "cid": -5},
        {"ann": 3, "bob": 9, "cid": 1},
    ):
        finish_round(table, scores)
    services.update_ratings()
    return users


@pytest.mark.parametrize("lang", ["it", "en"])
def test_a_profile_and_the_leaderboard_at_both_sizes(browser: Any, rated: dict[str, Any], lang: str) -> None:
    page: Browser = browser("bob", lang=lang)
    _sign_in(page, "bob")
    for size in (PHONE, DESKTOP):
        page.resize(size)
        page.open("/play/#/leaderboard/rummy500")
        page.wait_for(lambda: len(page.find_all("[data-role=leaderboard-row]")) == 3, message="three ranked")
        rows = page.find_all("[data-role=leaderboard-row]")
        assert rows[0].get_attribute("data-username") == "ann"
        heading = page.text("[data-role=leaderboard] h1")
        assert heading == ("Classifica: Ramino 500" if lang == "it" else "Leaderboard: Rummy 500")
        page.assert_fits(f"leaderboard-{lang}")
        page.assert_accessible(f"leaderboard-{lang}")

        rows[0].find_element("css selector", "a").click()
        page.wait_present("[data-role=profile-rating][data-game=rummy500] svg")
        assert page.text("[data-role=profile] h1") == "ann"
        rating = page.find("[data-role=profile-rating][data-game=rummy500]").text
        assert ("dopo 3 partite valutate" if lang == "it" else "after 3 rated games") in rating
        recent = page.find_all("[data-role=profile-recent] li")
        assert len(recent) == 3
        page.assert_fits(f"profile-{lang}")
        page.assert_accessible(f"profile-{lang}")

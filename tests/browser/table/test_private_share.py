"""A private table of any game, shared by a link (issue 31, defect 21), in Italian on a phone (390 by 844): the
lobby's form offers every game; its creator is seated on creation with the buy-in they chose and is shown a
link to share; another player opens the link, signs up, and joins from the page it opens. axe-core finds
nothing on either page, and neither scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.support.ui import Select

from ledger import selectors as ledger_selectors
from ledger.services import postings
from tests.browser.conftest import PHONE, Browser
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Seat, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "a-long-secret-9"
CREDIT = 5_000
ALL_GAMES = ["rummy500", "rummy500_household", "basic", "block", "wrotham", "romme", "board"]


def _credit(name: str, boss: Any) -> None:
    user = get_user_model().objects.get(username=name)
    postings.adjust_wallet(
        user=user, amount=CREDIT, reason="welcome", idempotency_key=f"welcome:{name}", posted_by=boss
    )


def _register_here(page: Browser, name: str) -> None:
    page.fill("[data-role=register-username]", name)
    page.fill("[data-role=register-password]", PASSWORD)
    page.fill_birth()
    page.click("[data-role=register]")


def _read(page: Browser, css: str, attribute: str | None = None) -> str:
    """An element's text (or attribute) once it has one; the table page redraws as it polls, so a read that
    finds an element just replaced is tried again (wait_for)."""
    return str(
        page.wait_for(
            lambda: page.attribute(css, attribute) if attribute else page.text(css), message=f"{css} read"
        )
    )


def _wallet(name: str) -> int:
    return ledger_selectors.wallet_balance(user=get_user_model().objects.get(username=name))


def test_a_private_board_table_is_created_seated_and_joined_by_its_link_in_italian_on_a_phone(
    browser: Any, settings: Any
) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300  # no deal: the players only sit
    boss = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")

    ann: Browser = browser("ann", lang="it")
    ann.resize(PHONE)
    ann.open("/play/")
    _register_here(ann, "ann")
    ann.find("[data-role=lobby]")
    _credit("ann", boss)

    # every game the server deals is offered, Board Rummy among them
    game = Select(ann.find("[data-role=create-game]"))
    assert [o.get_attribute("value") for o in game.options] == ALL_GAMES
    game.select_by_value("board")
    ann.fill("[data-role=create-min_buy_in]", 100)
    ann.fill("[data-role=create-max_buy_in]", 800)
    ann.fill("[data-role=create-buy_in]", 300)
    ann.assert_fits("lobby-create-form")
    ann.click("[data-role=create]")

    # the table page: she is seated with her buy-in, and is shown the link to share
    ann.wait_for(lambda: ann.find_all("[data-role=player][data-username=ann]"), message="ann seated")
    table_id = int(_read(ann, "[data-role=table-page]", "data-table"))
    table = Table.objects.get(pk=table_id)
    assert table.private and table.game == "board"
    assert list(Seat.objects.filter(table=table).values_list("player__username", "status")) == [
        ("ann", "active")
    ]
    assert _wallet("ann") == CREDIT - 300
    code = _read(ann, "[data-role=table-code]")
    assert code == table.code
    link = _read(ann, "[data-role=share-link]", "value")
    assert link == f"{ann.base}/play/#/join/{code}"
    assert "Tavolo" in _read(ann, "[data-role=table-page] h1")  # the page is Italian
    assert _read(ann, "[data-role=copy-link]") == "Copia il link"
    ann.assert_fits("table-share")
    ann.assert_accessible("table-share")

    # bob opens the link without an account: he signs up, and the link's page opens with the code filled in
    bob: Browser = browser("bob", lang="it")
    bob.resize(PHONE)
    bob.driver.get(link)
    bob.find("[data-role=register-form]")
    _register_here(bob, "bob")
    bob.find("[data-role=join-page]")
    assert _read(bob, "[data-role=join-code]", "value") == code
    _credit("bob", boss)
    bob.assert_fits("join-page")
    bob.assert_accessible("join-page")
    bob.fill("[data-role=join-buy-in]", 400)
    bob.click("[data-role=join]")
    bob.wait_for(
        lambda: bob.find("[data-role=table-page]").get_attribute("data-table") == str(table_id),
        message="bob at the table",
    )
    bob.wait_for(lambda: bob.find_all("[data-role=player][data-username=bob]"), message="bob seated")
    assert set(Seat.objects.filter(table=table).values_list("player__username", flat=True)) == {"ann", "bob"}
    assert _wallet("bob") == CREDIT - 400
    bob.assert_fits("table-joined")
    bob.assert_accessible("table-joined")
    assert_reconciled()

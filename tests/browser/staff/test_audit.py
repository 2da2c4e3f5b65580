"""Staff and admins in headless Chromium: a staff member signs in and reads a round's settlement and a
player's chip flow, and the pages show the numbers the ledger holds; an admin adds a table in the admin, is
refused an invalid one with a message and makes it private; the API docs render with no internet."""

from __future__ import annotations

from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from ledger import selectors as ledger_selectors
from ledger.models import Entry, Transfer, TransferKind
from tests.browser.conftest import Browser
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import settle_a_round_that_moves_chips
from tournaments.live.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "pw-for-tests-1"  # tests.ledger.utils.make_user's


def _sign_in(page: Browser, path: str, username: str) -> None:
    """Open a staff page; the admin's sign-in form comes first and leads back to it."""
    page.open(path)
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for(
        lambda: page.driver.current_url.endswith(path) and "/login/" not in page.driver.current_url,
        message=f"back at {path}",
    )


def _cell(page: Browser, row: str, role: str) -> int:
    """The number a cell shows, as its `data-value` holds it (the text groups thousands by language)."""
    return int(page.attribute(f"tr[{row}] [data-role={role}]", "data-value"))


def test_staff_read_the_rounds_settlement_and_the_players_chip_flow(
    browser: Any, dealt: dict[str, Any], client_for: Any, staff_user: Any
) -> None:
    round_ = settle_a_round_that_moves_chips(dealt, client_for)
    settlement = Transfer.objects.get(round_id=round_.pk, kind=TransferKind.SETTLEMENT)
    page: Browser = browser("staff")
    _sign_in(page, f"/audit/rounds/{round_.pk}/", staff_user.username)
    page.find("[data-role=settlement]")
    page.screenshot("round-settlement")
    assert page.attribute("[data-role=pcr]", "data-value") == str(settlement.computation["pcr"])
    for name in round_.players:
        leg = Entry.objects.get(transfer=settlement, account__user__username=name)
        assert _cell(page, f'data-player="{name}"', "ledger-net") == leg.amount
        assert _cell(page, f'data-player="{name}"', "score") == (round_.scores or {})[name]

    # from the settlement to the winner's chip flow, by the link
    winner = settlement.computation["winners"][0]
    page.driver.find_element(
        By.CSS_SELECTOR, f'tr[data-player="{winner}"] a[href="/audit/players/{winner}/"]'
    ).click()
    page.find("[data-role=flow-chart] svg")
    page.screenshot("chip-flow")
    user = dealt["users"][winner]
    assert page.attribute("[data-role=wallet]", "data-value") == str(
        ledger_selectors.wallet_balance(user=user)
    )
    entries = list(ledger_selectors.player_entries(user=user))
    rows = page.find_all("[data-role=entries] tr[data-entry]")
    assert [int(row.get_attribute("data-entry") or 0) for row in rows] == [e.pk for e in reversed(entries)]
    for entry in entries:
        assert page.attribute(f'tr[data-entry="{entry.pk}"] [data-role=amount]', "data-value") == str(
            entry.amount
        )

    # the table's who-paid-whom picture
    page.open(f"/audit/tables/{round_.game.table_id}/")
    page.find("[data-role=flow-chart] svg")
    page.screenshot("table")
    for payer, payee, chips in settlement.computation["transfers"]:
        cell = page.find(f'[data-role=flow-chart] text[data-from="{payer}"][data-to="{payee}"]')
        assert cell.text == str(chips)
    page.open("/audit/")
    page.find("[data-role=reconciliation]")
    page.screenshot("audit-index")
    assert_reconciled()


def test_an_admin_adds_a_table_is_refused_an_invalid_one_and_makes_it_private(
    browser: Any, admin_user: Any
) -> None:
    page: Browser = browser("admin")
    _sign_in(page, "/admin/tournaments/table/add/", admin_user.username)
    Select(page.find("#id_game")).select_by_value("rummy500")
    values: dict[str, str | int] = {"option_turn_seconds": 40, "seats": 9}
    values |= {"pcr": 2, "multiplier": 1, "min_buy_in": 100, "max_buy_in": 1000}
    for name, value in values.items():
        page.fill(f"#id_{name}", value)
    page.click("input[name=_save]")
    error = page.find(".field-seats .errorlist")
    page.screenshot("add-refused")
    assert error.text == "Choose a whole number from 2 to 4."
    assert not Table.objects.exists()

    page.fill("#id_seats", 4)
    page.click("input[name=_save]")
    page.find(".messagelist .success")
    page.screenshot("added")
    table = Table.objects.get()
    assert (table.seats, table.pcr, table.options, table.private) == (4, 2, {"turn_seconds": 40}, False)

    page.open(f"/admin/tournaments/table/{table.pk}/change/")
    page.click("#id_private")
    page.click("input[name=_continue]")
    page.find(".messagelist .success")
    page.screenshot("made-private")
    table.refresh_from_db()
    assert table.private and table.code
    assert table.code in page.text(".field-code")


def test_the_api_docs_render_without_the_internet(browser: Any) -> None:
    page: Browser = browser("reader", offline=True)
    page.open("/api/docs/")
    page.wait_for(lambda: len(page.find_all(".opblock")) > 20, timeout=30, message="Swagger UI's operations")
    paths = {el.text for el in page.find_all(".opblock-summary-path")}
    assert {"/api/v1/tables/", "/api/v1/ledger/transfers/", "/api/v1/games/{game_id}/moves/"} <= paths, paths
    page.screenshot("swagger-ui")
    page.open("/api/redoc/")
    page.wait_for(
        lambda: "/api/v1/ledger/transfers/" in page.driver.page_source,
        timeout=30,
        message="ReDoc's operations",
    )
    page.screenshot("redoc")

"""The staff and admin pages in people's words, in headless Chromium, in Italian at 390x844 (issue 31, defect 20):
the admin is titled for the site and names its models, columns and values in Italian; the tournament kind
chooser passes axe-core (its links stand in blocks of their own); after "Esegui ora" the audit index passes
axe-core (the message is inside the page's main landmark); a round's and a transfer's pages keep their headings in
order, show the tie rule, the reason and the computation in words (a list and tables, never a Python dict), and a
table's page its status, game and seats' statuses in words."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.models import Transfer, TransferKind
from tests.browser.conftest import PHONE, Browser
from tests.browser.staff.test_staff_pages import _sign_in
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import settle_a_round_that_moves_chips
from tournaments.live.models import Seat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def _check(page: Browser, label: str) -> None:
    page.assert_fits(label)
    page.assert_accessible(label)


def test_the_italian_admin_at_390_names_the_site_models_columns_and_values(
    browser: Any, admin_user: Any, make_table: Any
) -> None:
    make_table()
    page: Browser = browser("admin-it", lang="it")
    page.resize(PHONE)
    _sign_in(page, "/admin/", admin_user.username)
    assert page.text("#site-name") == "Ramino — amministrazione"
    home = page.text("#content").lower()  # the app list's captions are upper case by the admin's style
    assert "tavoli e tornei" in home and "registro delle fiches" in home and "tavoli" in home
    assert (
        "tournament" not in home
        and "ledger" not in home
        and "Amministrazione Django" not in page.driver.title
    )
    page.screenshot("admin-home-it-390")

    page.open("/admin/tournaments/table/")
    headers = [th.text.strip().lower() for th in page.find_all("#result_list thead th")]
    assert {"posti", "buy-in minimo", "buy-in massimo", "stato"} <= set(headers), headers
    assert page.text("#result_list tbody td.field-status") == "aperto"
    assert page.text("#result_list tbody td.field-game_name") == "Ramino 500"
    page.screenshot("admin-tables-it-390")

    page.open("/admin/tournaments/tournament/add/")
    kinds = [a.text for a in page.find_all("[data-role=tournament-kinds] a")]
    assert kinds == ["Partita rapida", "Sit-and-go (torneo singolo)", "Multi Torneo"]
    _check(page, "admin-kind-chooser-it")


def test_the_italian_audit_pages_at_390_say_it_in_words(
    browser: Any, dealt: dict[str, Any], client_for: Any, staff_user: Any
) -> None:
    round_ = settle_a_round_that_moves_chips(dealt, client_for)
    table_id = dealt["game"].table_id
    leaving = Seat.objects.filter(table_id=table_id).order_by("number").first()
    assert leaving is not None
    assert client_for(leaving.player).post(f"/api/v1/tables/{table_id}/leave/").status_code == 200
    settlement = Transfer.objects.get(round_id=round_.pk, kind=TransferKind.SETTLEMENT)

    page: Browser = browser("staff-it", lang="it")
    page.resize(PHONE)
    _sign_in(page, "/audit/", staff_user.username)
    page.click("[data-role=run-reconciliation]")
    page.find("main [data-role=messages]")  # the POST answered, its message inside the main landmark
    _check(page, "audit-run-now-it")
    assert "on_demand" not in page.text("[data-role=reconciliation-history]")
    assert page.text("[data-role=reconciliation-history] [data-role=trigger]") == "richiesta dallo staff"

    page.open(f"/audit/rounds/{round_.pk}/")
    assert page.text("[data-role=tie-rule]") in ("un solo vincitore", "pareggio: i vincitori dividono")
    assert "single_winner" not in page.text("main") and "rummy500" not in page.text("h1")
    _check(page, "audit-round-it")

    page.open(f"/audit/transfers/{settlement.pk}/")
    assert page.text("[data-role=reason]") == f"Mano {round_.number} al tavolo {table_id}"
    computation = page.text("[data-role=computation]")
    assert "Chi doveva quanto" in computation and "Regola del pareggio" in computation
    assert "{'" not in computation and "'payers'" not in computation
    assert (
        page.text("[data-role=chip-type]") == "fiches del sito"
        and page.text("[data-role=poster]") == "il sistema"
    )
    page.driver.execute_script("document.querySelector('[data-role=computation]').scrollIntoView()")
    page.screenshot("audit-computation-it-390")
    _check(page, "audit-transfer-it")

    page.open(f"/audit/tables/{table_id}/")
    assert page.text("[data-role=table-status]") == "aperto"
    statuses = {cell.text for cell in page.find_all("[data-role=seat-status]")}
    assert "uscito" in statuses and "left" not in statuses
    assert "rummy500" not in page.text("h1")
    _check(page, "audit-table-it")
    assert_reconciled()

"""The final-table deal in a real Chromium, in Italian on a 390 px phone (docs/rules.md "The final-table deal"):
a player at the final table sees the offer another proposed (both amounts, the amount kept, the countdown) in a
dialog, accepts it, and is paid at once; the page fits the phone and axe-core finds nothing. Entry rules show in
words on the tournament's page."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.services import accounts
from tests.browser.conftest import PHONE, Browser
from tests.factories import PASSWORD, MultiTournamentFactory, PlayerFactory
from tests.ledger.utils import assert_reconciled, make_user
from tournaments.deals import services as deals
from tournaments.deals.models import Deal, DealStatus
from tournaments.live.models import Game
from tournaments.multi_table import seating
from tournaments.tournament.models import TournamentEntry, TournamentStatus
from tournaments.tournament.start_common import pay_guarantee

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


# Every cell of the deal's amounts tables that sticks out: past the dialog, past the viewport, or cut (its content
# wider than itself); and any box between them that scrolls sideways.
OVERFLOWING = """
const out = [];
const vw = document.documentElement.clientWidth;
for (const table of document.querySelectorAll("[data-role=deal-amounts]")) {
  const panel = table.closest(".deal").getBoundingClientRect();
  for (const cell of table.querySelectorAll("tbody th, tbody td")) {
    const r = cell.getBoundingClientRect();
    const where = `${cell.closest("tr").dataset.username} ${cell.dataset.role || "name"}`;
    if (r.width === 0) out.push(`${where}: not shown`);
    if (r.left < panel.left - 0.5 || r.right > panel.right + 0.5) out.push(`${where}: outside the dialog`);
    if (r.left < 0 || r.right > vw + 0.5) out.push(`${where}: outside the viewport`);
    if (cell.scrollWidth > cell.clientWidth + 1) out.push(`${where}: cut (${cell.scrollWidth} > ${cell.clientWidth})`);
  }
  for (let box = table; box && box !== document.body; box = box.parentElement) {
    if (box.scrollWidth > box.clientWidth + 1) out.push(`${box.tagName}.${box.className}: scrolls sideways`);
  }
}
return out;
"""


def _assert_amounts_fit(page: Browser) -> None:
    """At 390 px no column of the deal's amounts is cut or scrolls sideways: every amount is on the screen."""
    assert page.driver.execute_script("return innerWidth") == 390
    assert page.driver.execute_script(OVERFLOWING) == []


def _sign_in(page: Browser, username: str) -> None:
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", username)
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")


def test_a_player_accepts_a_deal_in_italian_on_a_phone(browser: Any, live_server: Any) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    tournament = MultiTournamentFactory.create(
        created_by=boss,
        name="Finale di domenica",
        status=TournamentStatus.RUNNING,
        level=1,
        guarantee=1000,
        payouts=[50, 30, 20],
        min_rating=900,
        max_rating=1500,
        deal_seconds=600,
    )
    table = seating.open_tournament_table(tournament=tournament)
    people = {name: PlayerFactory.create(username=name, chips=1000) for name in ("ann", "bob", "cid")}
    for name, stack in (("ann", 500), ("bob", 300), ("cid", 200)):
        entry = TournamentEntry.objects.create(tournament=tournament, player=people[name])
        seating.seat_entrant(
            tournament=tournament,
            entry=entry,
            table=table,
            stack=stack,
            key=f"browser:{tournament.pk}:{name}",
        )
    pay_guarantee(tournament, entrants=0)
    tournament.refresh_from_db()
    deal = deals.propose(user=people["bob"], tournament_id=tournament.pk, method="icm")
    deals.answer(user=people["cid"], tournament_id=tournament.pk, deal_id=deal.pk, accept=True)
    before = int(accounts.get_wallet(user=people["ann"]).balance)

    page = browser("ann", lang="it")
    page.resize(PHONE)
    _sign_in(page, "ann")
    page.open(f"/play/#/tournament/{tournament.pk}")
    dialog = f"[data-role=deal-dialog][data-deal='{deal.pk}']"
    page.wait_present(dialog, "the offer shown in a dialog")
    assert "bob" in page.text(f"{dialog} h2") and "Accordo" in page.text(f"{dialog} h2")
    assert page.text("[data-role=deal-my-amount]").startswith("Il tuo importo")
    assert len(page.find_all("[data-role=deal-row]")) == 3
    assert "Punteggi" in page.text("[data-role=entry-rules]")
    # the last column, the amount offered, reads whole for each player
    offered = {
        name: page.text(f"[data-role=deal-row][data-username={name}] [data-role=deal-offered]")
        for name in people
    }
    assert offered == {name: f"{int(deal.amounts[name]):,}".replace(",", ".") for name in people}
    page.driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", dialog)
    _assert_amounts_fit(page)
    page.assert_fits("deal-offer-it")
    page.assert_accessible("deal-offer-it")
    page.screenshot("deal-offer-it")

    page.click("[data-role=deal-accept]")
    page.wait_attribute(dialog, "data-status", "accepted", message="the deal accepted and paid")
    assert Deal.objects.get(pk=deal.pk).status == DealStatus.ACCEPTED
    ann = get_user_model().objects.get(username="ann")
    assert int(accounts.get_wallet(user=ann).balance) == before + int(deal.amounts["ann"])
    page.driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", dialog)
    _assert_amounts_fit(page)
    page.assert_fits("deal-accepted-it")
    page.assert_accessible("deal-accepted-it")
    page.screenshot("deal-accepted-it")
    assert Game.objects.get(table=table).status != "playing"
    assert_reconciled()


def _final_table(boss: Any, name: str, **more: Any) -> Any:
    tournament = MultiTournamentFactory.create(
        created_by=boss,
        name=name,
        status=TournamentStatus.RUNNING,
        level=1,
        guarantee=600,
        payouts=[70, 30],
        **more,
    )
    table = seating.open_tournament_table(tournament=tournament)
    for username, stack in (("fin-ann", 400), ("fin-bob", 200)):
        player = get_user_model().objects.filter(username=username).first() or PlayerFactory.create(
            username=username, chips=1000
        )
        entry = TournamentEntry.objects.create(tournament=tournament, player=player)
        seating.seat_entrant(
            tournament=tournament,
            entry=entry,
            table=table,
            stack=stack,
            key=f"browser:{tournament.pk}:{username}",
        )
    pay_guarantee(tournament, entrants=0)
    tournament.refresh_from_db()
    return tournament


def test_a_satellite_shows_no_deal_at_its_final_table(browser: Any, live_server: Any) -> None:
    """docs/rules.md "The final-table deal": never in a satellite. The same final table offers the deal in an
    ordinary tournament, and none in a satellite (its prizes are tickets)."""
    boss = make_user("boss", is_staff=True, is_superuser=True)
    target = MultiTournamentFactory.create(created_by=boss, name="Evento principale")
    ordinary = _final_table(boss, "Finale normale")
    satellite = _final_table(boss, "Finale satellite", satellite_target=target)

    page = browser("fin-ann", lang="it")
    page.resize(PHONE)
    _sign_in(page, "fin-ann")
    page.open(f"/play/#/tournament/{ordinary.pk}")
    page.wait_present("[data-role=deal-propose]", "the deal offered at an ordinary final table")
    page.open(f"/play/#/tournament/{satellite.pk}")
    page.wait_present(f"[data-role=tournament][data-tournament='{satellite.pk}']", "the satellite's page")
    assert page.find_all("[data-role=deal-propose]") == [] and page.find_all("[data-role=deal-dialog]") == []
    page.assert_fits("satellite-final-table-it")
    page.assert_accessible("satellite-final-table-it")
    assert not Deal.objects.filter(tournament=satellite).exists()

"""A multi-table tournament's winner's moment at the table (docs/web.md "The table page", "Tournament life at the
table"), in a real Chromium, in Italian on a 390 px phone: the winner sits at the final table when the tournament
finishes (the other player busted, the prizes paid, the table closed); the page says so over the table once, with
the prize, in the words a person reads; it fits the phone and axe-core finds nothing; closed, it does not come
back."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import transaction

from tests.browser.conftest import PHONE, Browser
from tests.factories import PASSWORD, PlayerFactory
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.tournaments.multi_table.reads import helpers as multi
from tournaments.live import dispatch
from tournaments.live.models import Table, TableStatus
from tournaments.multi_table import finish
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture(autouse=True)
def _no_message_to_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test finishes the tournament itself: no message leaves this process."""
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)


def _italian_number(value: int) -> str:
    return f"{value:,}".replace(",", ".")


def test_the_winner_sees_the_tournament_won_with_the_prize_in_italian_on_a_phone(
    browser: Any, live_server: Any
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    people = {}
    for name in ("ann", "bob"):
        people[name] = PlayerFactory.create(username=name)
        people[name].set_password(PASSWORD)
        people[name].save()
        funded_wallet(people[name], 1000)
    t = multi.multi_tournament(boss, name="Domenica", payouts=[100])
    multi.register_all(t, list(people.values()))
    (table,) = multi.start(t, sizes=[2])

    page: Browser = browser("ann", lang="it")
    page.resize(PHONE)
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", "ann")
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")
    page.open(f"/play/#/table/{table.pk}")
    # seated at the final table: one screen, the tournament's strip, no winner yet
    page.wait_present("[data-role=tournament-strip]", "the tournament's strip")
    assert "one-screen" in page.attribute("[data-role=table-page]", "class").split()
    assert not page.find_all("[data-role=moment-winner]")

    # bob busts; the tournament finishes: the prizes paid, the table closed under ann's eyes
    multi.bust(t, loser=people["bob"], winner=people["ann"], place=2, key="bust:bob")
    TournamentEntry.objects.filter(tournament=t, player=people["bob"]).update(
        bust_group=1, bust_start_chips=t.starting_stack
    )
    with transaction.atomic():
        finish.finish(tournament=Tournament.objects.select_for_update().get(pk=t.pk))
    assert Tournament.objects.get(pk=t.pk).status == TournamentStatus.FINISHED
    assert Table.objects.get(pk=table.pk).status == TableStatus.CLOSED
    prize = int(TournamentEntry.objects.get(tournament=t, player=people["ann"]).prize or 0)
    assert prize > 0

    moment = "[data-role=moment-winner]"
    page.wait_shown(moment, "the winner's moment", timeout=30)
    assert page.text(f"{moment} .moment-title") == "Hai vinto il torneo!"
    assert page.text(f"{moment} .moment-text") == f"Premio: {_italian_number(prize)} fiches."
    assert page.text(f"{moment} [data-role=moment-close]") == "Chiudi"
    assert page.find(moment).get_attribute("role") == "status"  # read out when it comes
    # the page links to the tournament's page (the standings, the prizes)
    assert page.text("[data-role=tournament-link]") == "La pagina del torneo: classifica e premi"
    box = page.driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, vw: innerWidth, vh: innerHeight};",
        moment,
    )
    assert box["left"] >= 0 and box["right"] <= box["vw"] and 0 <= box["top"] < box["vh"], box
    page.assert_fits("winner-it")
    page.assert_accessible("winner-it")
    page.screenshot("winner-it")

    # closed, it is gone, and a new read of the page does not bring it back
    page.click(f"{moment} [data-role=moment-close]")
    page.wait_for(lambda: not page.find_all(moment), message="the moment closed")
    page.driver.refresh()
    page.wait_present("[data-role=table-page]", "the table page again")
    page.wait_present("[data-role=tournament-link]", "the tournament's link")
    seen = f"return sessionStorage.getItem('ramino.moment.{t.pk}.winner')"
    assert page.driver.execute_script(seen) == "1"
    time.sleep(3)  # the tournament read again (its standings) and the page redrawn: still no moment
    assert not page.find_all(moment)
    assert_reconciled()

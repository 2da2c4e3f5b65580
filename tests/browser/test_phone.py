"""Every player page on a phone (390x844) and a laptop (1366x900), in Italian and in English: the document is no
wider than the viewport (no horizontal scroll) and axe-core finds no violation of any impact. The pages: the
landing page, the sign-in page, the lobby, a tournament's page, the wallet, a table with a dealt hand and the
round's results.

Each page is measured at both sizes and every finding is kept, so one run reports them all (the test still
fails on any); a screenshot of each page at each size is in var/screenshots/. The hooks are data-role
attributes the pages' own tests use too."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from selenium.webdriver.common.keys import Keys

from tests.browser.conftest import DESKTOP, PHONE, Browser
from tests.factories import PASSWORD, PlayerFactory, TableFactory, TournamentFactory, fund
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.reads import helpers as multi
from tests.tournaments.single_table.helpers import bots_play_the_round
from tournaments.live.models import Game, Round
from tournaments.live.tables import services as tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

LANGUAGES = ["it", "en"]


class Findings:
    """What the pages got wrong, page by page and size by size."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def check(self, page: Browser, label: str) -> None:
        """`page` as it stands, at the phone's size and at the laptop's: fits, and axe-core is clean."""
        for size in (PHONE, DESKTOP):
            page.resize(size)
            where = f"{label} at {size[0]}x{size[1]}"
            try:
                page.assert_fits(label)  # its screenshot is named with the width
            except AssertionError as found:
                self.problems.append(f"{where}: {found}; too wide: {_overflowing(page)}")
            try:
                page.assert_accessible(f"{label}-{size[0]}")
            except AssertionError as found:
                self.problems.append(f"{where}: {found}")
        page.resize(PHONE)

    def assert_none(self) -> None:
        assert self.problems == [], "\n".join(self.problems)


# The outermost elements that reach past the viewport's right edge while their parent does not: where a page
# is too wide, for the report.
OVERFLOWING = """
const width = document.documentElement.clientWidth;
const name = (el) => el.tagName.toLowerCase() + (el.dataset.role ? `[data-role=${el.dataset.role}]` : "")
  + (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "");
const found = [];
for (const el of document.body.querySelectorAll("*")) {
  const right = el.getBoundingClientRect().right;
  const parent = el.parentElement;
  if (right > width + 1 && parent && parent.getBoundingClientRect().right <= width + 1) {
    found.push(`${name(parent)} > ${name(el)} (${Math.round(el.getBoundingClientRect().width)} px)`);
  }
}
return found.slice(0, 8);
"""


def _overflowing(page: Browser) -> list[str]:
    return list(page.driver.execute_script(OVERFLOWING))


def _sign_in(page: Browser, username: str) -> None:
    page.fill("[data-role=sign-in-username]", username)
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_landing_sign_in_lobby_tournament_and_wallet_pages_fit_a_phone_and_pass_axe(
    browser: Any, live_server: Any, lang: str
) -> None:
    boss = PlayerFactory.create(username="boss", chips=0, is_staff=True, is_superuser=True)
    table = TableFactory.create(creator=boss)
    sit_and_go = TournamentFactory.create(created_by=boss, name="Serata sit-and-go")
    # a running multi-table tournament: standings and tables on its page
    players = [PlayerFactory.create(username=name, chips=1_000) for name in ("ann", "bob", "cat", "dan")]
    running = multi.multi_tournament(boss, name="Domenica multi")
    multi.register_all(running, players)
    multi.start(running, sizes=[2, 2])
    upcoming = multi.multi_tournament(boss, name="Lunedì multi")
    findings = Findings()

    page = browser("eve", lang=lang)
    page.resize(PHONE)
    page.open("/")
    assert page.attribute("html", "lang") == lang
    page.find(f"[data-role=landing-tournament][data-tournament='{upcoming.pk}']")
    page.find(f"[data-role=landing-tournament][data-tournament='{sit_and_go.pk}']")
    findings.check(page, "landing")

    page.click("[data-role=link-play]")
    page.find("[data-role=register-form]")
    findings.check(page, "sign-in")

    page.fill("[data-role=register-username]", "eve")
    page.fill("[data-role=register-password]", PASSWORD)
    page.fill_birth()
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    eve = get_user_model().objects.get(username="eve")
    fund(eve, 5_000)
    eve_seat_table = TableFactory.create(creator=boss, seats=2)
    tables.sit(user=eve, table_id=eve_seat_table.pk, buy_in=500)
    tables.leave(user=eve, table_id=eve_seat_table.pk)  # a buy-in and a cash-out in her wallet's history
    page.open("/play/#/lobby")
    page.wait_present(f"[data-role=table-row][data-table='{table.pk}']", "the open table in the lobby")
    page.wait_present(f"[data-role=tournament-row][data-tournament='{sit_and_go.pk}']", "the sit-and-go")
    findings.check(page, "lobby")

    page.open(f"/play/#/tournament/{running.pk}")
    page.wait_present("[data-role=standing-row][data-username=ann]", "the standings")
    page.wait_present("[data-role=tournament-table-row]", "the tournament's tables")
    findings.check(page, "tournament")

    page.click("[data-role=nav-wallet]")
    page.wait_present("[data-role=wallet-row][data-kind=cash_out]", "the wallet's history")
    findings.check(page, "wallet")

    findings.assert_none()
    assert_reconciled()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_table_with_a_dealt_hand_and_the_rounds_results_fit_a_phone_and_pass_axe(
    browser: Any, live_server: Any, celery_worker_process: Any, settings: Any, lang: str
) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 0.5
    boss = PlayerFactory.create(username="boss", chips=0, is_staff=True, is_superuser=True)
    table = TableFactory.create(creator=boss, seats=2, options={"turn_seconds": 600, "time_bank_seconds": 60})
    ann, bob = PlayerFactory.create(username="ann"), PlayerFactory.create(username="bob")
    page = browser("ann", lang=lang)
    page.resize(PHONE)
    page.open("/play/")
    _sign_in(page, "ann")
    tables.sit(user=ann, table_id=table.pk, buy_in=1_000)
    tables.sit(user=bob, table_id=table.pk, buy_in=1_000)
    page.open(f"/play/#/table/{table.pk}")
    page.wait_attribute(
        "[data-role=table-page]", "data-round", "1", "round 1 dealt by the worker", timeout=30
    )
    page.wait_present("[data-role=hand] [data-card]", "the dealt hand")
    # the results stay on the page: no next deal during this test
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300
    findings = Findings()
    findings.check(page, "table-dealt")

    game = Game.objects.get(table=table)
    bots_play_the_round(game)
    assert Round.objects.get(game=game, number=1).settled
    page.wait_present(
        "[data-role=round][data-number='1'][data-settled='true']", "round 1's results on the page", timeout=30
    )
    findings.check(page, "table-results")
    findings.assert_none()
    assert not Round.objects.filter(game=game, number=2).exists()


def test_the_skip_link_is_the_first_stop_and_leads_to_the_main_content_without_changing_the_route(
    browser: Any, live_server: Any
) -> None:
    page = browser("kim", lang="it")
    page.resize(PHONE)
    for path, main_id in (("/", "main"), ("/play/#/lobby", "app")):
        page.open(path)
        page.find("main")
        page.find("body").send_keys(Keys.TAB)
        focused = page.driver.switch_to.active_element
        assert focused.get_attribute("data-role") == "skip-link", path
        assert focused.text == "Vai al contenuto principale"
        assert focused.is_displayed() and focused.location["y"] >= 0
        # the focus ring shows
        assert (
            page.driver.execute_script("return getComputedStyle(arguments[0]).outlineStyle", focused)
            != "none"
        )
        page.screenshot(f"skip-link-{main_id}")
        hash_before = page.driver.execute_script("return location.hash")
        focused.send_keys(Keys.ENTER)
        page.wait_for(
            lambda target=main_id: page.driver.switch_to.active_element.get_attribute("id") == target,
            message=f"the focus on the main content of {path}",
        )
        assert page.driver.execute_script("return location.hash") == hash_before, path

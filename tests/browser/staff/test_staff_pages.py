"""Staff and admins in headless Chromium, in English and Italian, at 1366x900 and 390x844: the audit index finds
tournaments by name and status, the reconciliation section refreshes by itself after "Run now", a chip-flow
chart has labelled axes with ticks, a cancelled tournament lists its refunds; in the admin a table is created
with the game select and the game's own options, a violated constraint reads as a sentence on its field, and a
multi-table tournament takes its payouts as percentages. The audit pages fit and pass axe-core; the admin's own
markup is Django's (only what we add is checked)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from selenium.webdriver.support.ui import Select

from ledger.models import ReconciliationRun
from ledger.services import reconciliation
from tests.browser.conftest import DESKTOP, PHONE, Browser
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import settle_a_round_that_moves_chips
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.live.models import Table
from tournaments.tournament import admin_actions, registration
from tournaments.tournament.models import Tournament, TournamentStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "pw-for-tests-1"  # tests.ledger.utils.make_user's


def _sign_in(page: Browser, path: str, username: str) -> None:
    page.open(path)
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for(
        lambda: page.driver.current_url.endswith(path) and "/login/" not in page.driver.current_url,
        message=f"back at {path}",
    )


def _check_both_sizes(page: Browser, label: str) -> None:
    for size in (DESKTOP, PHONE):
        page.resize(size)
        page.assert_fits(label)
        page.assert_accessible(f"{label}-{size[0]}")


def _listed(page: Browser) -> list[int]:
    return [int(row.get_attribute("data-tournament") or 0) for row in page.find_all("tr[data-tournament]")]


def test_staff_find_tournaments_and_read_a_cancelled_ones_refunds(
    browser: Any, admin_user: Any, staff_user: Any, make_player: Any
) -> None:
    friday = new_tournament(admin_user, name="Friday sit-and-go", buy_in=100, fee=10)
    lunch = new_tournament(admin_user, name="Lunch quick game", kind="quick", rounds=1)
    for name in ("ann", "bob"):
        registration.register(user=make_player(name), tournament_id=friday.pk)
    admin_actions.cancel(tournament_id=friday.pk)

    page: Browser = browser("staff")
    _sign_in(page, "/audit/", staff_user.username)
    assert _listed(page) == [lunch.pk, friday.pk]
    page.fill("#id_name", "friday")
    page.click("[data-role=tournament-search] button")
    page.wait_for(lambda: _listed(page) == [friday.pk], message="the search by name")
    Select(page.find("#id_status")).select_by_value("registering")
    page.click("[data-role=tournament-search] button")
    page.wait_for(lambda: _listed(page) == [], message="friday is not registering")
    page.fill("#id_name", "")
    Select(page.find("#id_status")).select_by_value("cancelled")
    page.click("[data-role=tournament-search] button")
    page.wait_for(lambda: _listed(page) == [friday.pk], message="the cancelled one")
    _check_both_sizes(page, "tournament-list")

    page.click(f'tr[data-tournament="{friday.pk}"] a')
    page.find("[data-role=tournament-cancelled]")
    assert "This tournament was cancelled. 2 entries were refunded" in page.text(
        "[data-role=tournament-cancelled]"
    )
    refunds = {
        row.get_attribute("data-player"): row.find_element(
            "css selector", "[data-role=refund]"
        ).get_attribute("data-value")
        for row in page.find_all("[data-role=refunds] tr[data-player]")
    }
    assert refunds == {"ann": "110", "bob": "110"}
    _check_both_sizes(page, "cancelled-tournament")

    italian: Browser = browser("staff-it", lang="it")
    _sign_in(italian, f"/audit/tournaments/{friday.pk}/", staff_user.username)
    assert italian.text("[data-role=tournament-status]") == "annullato"
    assert "Questo torneo è stato annullato. 2 iscrizioni sono state rimborsate" in italian.text(
        "[data-role=tournament-cancelled]"
    )
    _check_both_sizes(italian, "cancelled-tournament-it")
    italian.open("/audit/?status=cancelled")
    assert _listed(italian) == [friday.pk] and italian.text("h2#tournaments") == "Tornei"
    _check_both_sizes(italian, "tournament-list-it")
    assert_reconciled()


def test_run_now_refreshes_the_reconciliation_by_itself(
    browser: Any, staff_user: Any, make_player: Any, celery_worker_process: Any
) -> None:
    make_player("ann")
    page: Browser = browser("staff")
    _sign_in(page, "/audit/", staff_user.username)
    page.click("[data-role=run-reconciliation]")
    page.find("[data-role=messages]")  # the POST answered: the run is queued
    run = ReconciliationRun.objects.get()  # the worker runs it; the section shows it when it has finished
    # The session's worker may first work through what earlier tests left on its queue (clocks, deals): under
    # load that took more than 15 s once.
    page.wait_attribute(
        "[data-role=reconciliation-status]", "data-run", str(run.pk), message="the run", timeout=45
    )
    assert page.attribute("[data-role=reconciliation-status]", "data-ok") == "true"

    # A run waiting for a worker: the page polls, and shows the result without being reloaded.
    waiting = ReconciliationRun.objects.create(trigger="on_demand", requested_by=staff_user)
    italian: Browser = browser("staff-it", lang="it")
    _sign_in(italian, "/audit/", staff_user.username)
    italian.resize(PHONE)
    assert "attende un worker" in italian.text("[data-role=reconciliation-pending]")
    italian.assert_fits("reconciliation-pending-it")
    italian.assert_accessible("reconciliation-pending-it")
    italian.driver.execute_script("window.notReloaded = true;")
    reconciliation.perform_reconciliation_run(run_id=waiting.pk)
    # a poll every two seconds, each a page render on the live server: slow under load
    italian.wait_attribute(
        "[data-role=reconciliation-status]", "data-run", str(waiting.pk), message="polled", timeout=45
    )
    assert italian.driver.execute_script("return window.notReloaded === true;")
    assert not italian.find_all("[data-role=reconciliation-pending]")
    assert "in ordine" in italian.text("[data-role=reconciliation-status]")
    italian.assert_accessible("reconciliation-done-it")


def test_a_chip_flow_chart_has_axes_with_tick_labels(
    browser: Any, dealt: dict[str, Any], client_for: Any, staff_user: Any
) -> None:
    settle_a_round_that_moves_chips(dealt, client_for)
    for lang, grouping in (("en", ","), ("it", ".")):
        page: Browser = browser(f"staff-{lang}", lang=lang)
        _sign_in(page, "/audit/players/ann/", staff_user.username)
        chart = "[data-role=flow-chart] svg"
        values = page.find_all(f"{chart} g[data-axis=value] text[data-tick]")
        times = page.find_all(f"{chart} g[data-axis=time] text[data-tick]")
        assert len(values) >= 3 and len(times) >= 1
        ticks = [int(v.get_attribute("data-tick") or 0) for v in values]
        steps = {b - a for a, b in itertools.pairwise(ticks)}
        assert len(steps) == 1 and str(steps.pop()).rstrip("0") in ("1", "2", "25", "5")  # round steps
        big = [v for v in values if int(v.get_attribute("data-tick") or 0) >= 1000]
        assert big and all(grouping in v.text for v in big), [v.text for v in values]
        assert all(t.text for t in times)
        names = [t.text for t in page.find_all(f"{chart} g[data-axis] text:not([data-tick])")]
        assert (
            ("chips" in names and "time" in names) if lang == "en" else ("fiches" in names and "ora" in names)
        )
        _check_both_sizes(page, f"chip-flow-{lang}")


def test_an_admin_makes_a_table_with_the_game_select_and_its_own_options(
    browser: Any, admin_user: Any
) -> None:
    page: Browser = browser("admin")
    _sign_in(page, "/admin/tournaments/table/add/", admin_user.username)
    game = Select(page.find("#id_game"))
    assert {o.get_attribute("value") for o in game.options} >= {"rummy500", "basic", "board"}
    game.select_by_value("basic")
    assert page.find(".field-option_going_rummy").is_displayed()
    assert not page.find(".field-option_rummy_calls").is_displayed()  # Rummy 500's option, not Basic Rummy's
    game.select_by_value("rummy500")
    page.wait_for(lambda: not page.find(".field-option_going_rummy").is_displayed(), message="hidden for 500")
    Select(page.find("#id_option_rummy_calls")).select_by_value("false")
    values = {"option_turn_seconds": 40, "seats": 4, "pcr": 2, "min_buy_in": 100, "max_buy_in": 1000}
    for name, value in values.items():
        page.fill(f"#id_{name}", value)
    page.click("input[name=_save]")
    page.find(".messagelist .success")
    page.screenshot("table-added")
    table = Table.objects.get()
    assert (table.game, table.options) == ("rummy500", {"turn_seconds": 40, "rummy_calls": False})

    # the stored options come back in their fields
    page.open(f"/admin/tournaments/table/{table.pk}/change/")
    assert page.attribute("#id_option_turn_seconds", "value") == "40"
    assert Select(page.find("#id_option_rummy_calls")).first_selected_option.get_attribute("value") == "false"


def test_a_violated_constraint_reads_as_a_sentence_on_its_field(browser: Any, admin_user: Any) -> None:
    for lang, sentence in (
        ("en", "The largest buy-in cannot be below the smallest."),
        ("it", "Il buy-in massimo non può essere inferiore al minimo."),
    ):
        page: Browser = browser(f"admin-{lang}", lang=lang)
        page.resize(PHONE if lang == "it" else DESKTOP)
        _sign_in(page, "/admin/tournaments/table/add/", admin_user.username)
        values = {"seats": 4, "pcr": 2, "min_buy_in": 500, "max_buy_in": 100}
        for name, value in values.items():
            page.fill(f"#id_{name}", value)
        page.click("input[name=_save]")
        error = page.find(".field-max_buy_in .errorlist")
        page.screenshot(f"constraint-{lang}")
        assert error.text == sentence
        assert (
            "table_buy_in_range" not in page.driver.page_source and "violated" not in page.driver.page_source
        )
        page.assert_fits(f"constraint-{lang}")
    assert not Table.objects.exists()


def test_a_multi_table_tournament_takes_its_payouts_as_percentages(browser: Any, admin_user: Any) -> None:
    page: Browser = browser("admin")
    _sign_in(page, "/admin/tournaments/tournament/add/", admin_user.username)
    page.find("[data-role=tournament-kinds] a")
    kinds = [a.get_attribute("data-kind") for a in page.find_all("[data-role=tournament-kinds] a")]
    assert kinds == ["quick", "single", "multi"]
    page.click("a[data-kind=quick]")
    page.find("#id_rounds")
    assert not page.find_all("#id_starting_stack") and not page.find_all(
        "#id_target_score"
    )  # quick's own form

    page.open("/admin/tournaments/tournament/add/")
    page.click("a[data-kind=multi]")
    page.find("#id_starting_stack")
    assert not page.find_all("#id_rounds") and not page.find_all("#id_target_score")
    values: dict[str, str | int] = {
        "name": "Sunday multi",
        "buy_in": 100,
        "max_entrants": 200,
        "min_entrants": 10,
        "payouts": "50, 30, 30",
        "starting_stack": 2000,
        "pcr_schedule": "1, 2, 4",
        "rounds_per_level": 3,
        "starts_at_0": "2099-06-01",
        "starts_at_1": "20:00:00",
    }
    for name, value in values.items():
        page.fill(f"#id_{name}", value)
    page.click("input[name=_save]")
    error = page.find(".field-payouts .errorlist")
    page.screenshot("payouts-refused")
    assert error.text == "The percentages add up to 110; they must add up to 100."
    page.fill("#id_payouts", "50, 30, 20")
    page.click("input[name=_save]")
    page.find(".messagelist .success")
    page.screenshot("multi-added")
    tournament = Tournament.objects.get()
    assert (tournament.kind, tournament.payouts, tournament.pcr_schedule) == (
        "multi",
        [50, 30, 20],
        [1, 2, 4],
    )
    assert tournament.status == TournamentStatus.REGISTERING
    page.open(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.attribute("#id_payouts", "value") == "50, 30, 20"

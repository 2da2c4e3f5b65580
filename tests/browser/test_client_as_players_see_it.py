"""The player client as players see it, in Italian on a phone (390x844), issue 31's defects 13-19: a player the
tournament moves follows it to the new table and is told so; a seated player waiting for the first deal is told
that (not that they watch, nor an empty stock); the deal's verification wraps its hash; a round's payments, the
players table's header, who placed a meld's cards and the replay's steps in words for players; a ring table's
clock in minutes and its leave button distinct from signing out; registration's password refusal in Italian;
the tournament pages' numbers (entering, one entrant's prize, a finished sit-and-go's tables) and a profile's
rating after one game. Every page fits the phone and passes axe-core."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from ratings import services as rating_services
from tests.browser.conftest import PHONE, Browser
from tests.factories import PlayerFactory, TableFactory
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.ratings.conftest import finish_round
from tests.tournaments.multi_table.reads import helpers as multi
from tests.tournaments.practice.helpers import play_out_round
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Table, TableStatus
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables
from tournaments.multi_table import seating
from tournaments.practice import services as practice
from tournaments.tournament.models import TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "una-parola-lunga-9"


def _person(name: str, chips: int = 0) -> Any:
    user = PlayerFactory.create(username=name, chips=chips)
    user.set_password(PASSWORD)
    user.save()
    return user


def _signed_in(browser: Any, name: str) -> Browser:
    page: Browser = browser(name, lang="it")
    page.resize(PHONE)
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", name)
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")
    return page


def _check(page: Browser, label: str) -> None:
    page.assert_fits(label)
    page.assert_accessible(label)


def _text(page: Browser, css: str) -> str:
    return str(page.wait_for(lambda: page.reach(css).text or " ", message=f"text of {css}"))


def _lines(page: Browser, css: str) -> int:
    """How many lines the text of the element `css` takes on the page."""
    return int(
        page.driver.execute_script(
            "const r = document.createRange(); r.selectNodeContents(document.querySelector(arguments[0]));"
            "return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;",
            css,
        )
    )


def test_a_seated_player_waits_for_the_deal_then_follows_a_move_to_another_table(
    browser: Any, live_server: Any
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    people = {name: _person(name) for name in ("ann", "bob", "cid", "dan")}
    for person in people.values():
        funded_wallet(person, 1000)
    t = multi.multi_tournament(boss, name="Domenica")
    multi.register_all(t, list(people.values()))
    one, two = multi.start(t, sizes=[2, 2])
    page = _signed_in(browser, "ann")

    # Seated, before the first deal: waiting for it, no stock of 0 and no "you are watching".
    page.open(f"/play/#/table/{one.pk}")
    page.wait_present("[data-role=waiting-deal]", "the wait for the deal said")
    assert (
        page.text("[data-role=waiting-deal]") == "Sei seduto al tavolo: aspetti la distribuzione delle carte."
    )
    assert not page.find_all("[data-role=spectating]")
    assert not page.find_all("[data-role=stock]")
    assert page.text("[data-role=no-deal]") == "Le carte non sono ancora state distribuite."
    # The strip's clock says it whole on a phone (in at most two lines, none cut short).
    clock = ".table-strip .clock"
    assert page.text(clock) == "In attesa della prima distribuzione del torneo."
    assert _lines(page, clock) <= 2
    assert page.driver.execute_script(
        "const c = document.querySelector(arguments[0]);"
        "return c.scrollHeight <= c.clientHeight + 1 && c.scrollWidth <= c.clientWidth + 1;",
        clock,
    ), "the strip's clock is cut"
    _check(page, "waiting-for-the-deal")

    # The tournament breaks table one: ann moves to table two. Her page follows her there by itself.
    entry = TournamentEntry.objects.get(tournament=t, player=people["ann"])
    with transaction.atomic():
        seating.move_entrant(
            tournament=t,
            entry=entry,
            destination=two,
            number=3,
            key=f"tournament:{t.pk}:entry:{entry.pk}:move:1",
        )
        Table.objects.filter(pk=one.pk).update(status=TableStatus.CLOSED)
    page.wait_attribute("[data-role=table-page]", "data-table", str(two.pk), "the page followed the move")
    assert page.driver.execute_script("return location.hash") == f"#/table/{two.pk}"
    # Said aloud by the moment over the felt (a status), with no flash over the strip saying it again.
    page.wait_shown("[data-role=moment-moved]", "the move said at the new table")
    assert page.attribute("[data-role=moment-moved]", "role") == "status"
    assert page.driver.execute_script("return document.getElementById('flash').hidden") is True
    assert page.text("[data-role=moved]") == f"Sei stato spostato al tavolo {two.pk} (dal tavolo {one.pk})."
    page.wait_present("[data-role=waiting-deal]", "still waiting for the deal, at the new table")
    _check(page, "moved-to-the-new-table")

    # Back at the closed table (a link, the history): it says where she plays now.
    page.open(f"/play/#/table/{one.pk}")
    page.wait_present("[data-role=my-table-link]", "the way to her table")
    assert page.attribute("[data-role=my-table-link]", "href").endswith(f"#/table/{two.pk}")
    assert page.driver.execute_script("return location.hash") == f"#/table/{one.pk}"
    assert_reconciled()


def test_a_finished_round_its_verification_payments_melds_and_replay_in_words_for_players(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The round is played here, in the test's process (no message leaves it): the player greedily, one bot.
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)
    ann = _person("giulia")
    page = _signed_in(browser, "giulia")
    table = practice.start_practice(player=ann, game="rummy500", bots=2, level="easy")
    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk).update(next_round_at=timezone.now())
    assert round_start.start_round(game_id=game.pk) is not None
    round_ = play_out_round(game_id=game.pk, player=ann)
    assert round_.ended_at is not None

    page.open(f"/play/#/table/{table.pk}")
    page.wait_present("[data-role=round] [data-role=seal]", "the round in the history")
    # The players table's header "Carte" stays one word on one line.
    header = "[data-role=players] thead th:nth-child(2)"
    assert page.text(header) == "Carte"
    assert _lines(page, header) == 1
    # A round's payments are called so (not "Regolamento", the rules).
    assert page.text("[data-role=transfers] h4") == "Pagamenti"
    # Who placed a meld's cards: said once for each group one player put down, never under every card.
    # Read in one script: the client redraws the section on each event, and a redraw between finding a meld and
    # reading its cards left the test holding a stale element.
    melds = page.driver.execute_script(
        "return [...document.querySelectorAll('[data-role=melds] [data-role=meld]')].map((meld) => ({"
        "cards: meld.querySelectorAll('.card').length,"
        "names: meld.querySelectorAll('[data-role=placer]').length,"
        "placers: [...meld.querySelectorAll('[data-role=placed-run]')].map((run) => run.dataset.placer)}))"
    )
    assert melds, "the round ended with melds on the table"
    for meld in melds:
        cards, names, placers = meld["cards"], meld["names"], meld["placers"]
        assert names <= len(placers) < cards + 1 and names < cards
        assert all(a != b for a, b in itertools.pairwise(placers))
    page.driver.execute_script("document.querySelector('[data-role=melds]').scrollIntoView()")
    page.screenshot("melds")
    # The deal verified (the seal, "Mano verificata"): its hash wraps behind the details, the page still fits.
    page.wait_attribute("[data-role=round] [data-role=seal]", "data-state", "verified", "the deal verified")
    assert _text(page, "[data-role=round] [data-role=seal-words]") == "Mano verificata"
    page.click("[data-role=round] [data-role=seal-details] summary")
    assert "SHA-256" in _text(page, "[data-role=round] [data-role=seal-details]")
    page.driver.execute_script(
        "document.querySelector('[data-role=round] [data-role=commitment]').scrollIntoView()"
    )
    _check(page, "verified-deal")

    # The replay writes no "null" under the step's words, at any step.
    page.open(f"/play/#/replay/{game.pk}/1")
    page.wait_present("[data-role=replay]", "the replay")
    steps = int(page.attribute("[data-role=replay]", "data-steps"))
    for step in (1, 2, steps - 1):
        page.driver.execute_script(
            "const s = document.querySelector('[data-role=replay-slider]');"
            "s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
            step - 1,
        )
        page.wait_attribute("[data-role=replay]", "data-step", str(step))
        shown = page.driver.execute_script("return document.querySelector('.replay-view').textContent")
        assert "null" not in shown, (step, shown[:200])
        texts = page.driver.execute_script(
            "return [...document.querySelector('.replay-view').childNodes].filter((n) => n.nodeType === 3)"
            ".map((n) => n.textContent)"
        )
        assert texts == [], texts
    _check(page, "replay-step")


def test_a_ring_tables_clock_in_minutes_its_leave_words_and_registrations_refusal(
    browser: Any, live_server: Any
) -> None:
    boss = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    table = tables.create_table(
        user=boss,
        game="rummy500",
        options={"turn_seconds": 300, "time_bank_seconds": 90},
        seats=2,
        pcr=2,
        min_buy_in=200,
        max_buy_in=2_000,
    )
    quick = tables.create_table(
        user=boss,
        game="basic",
        options={"turn_seconds": 30, "time_bank_seconds": 0},
        seats=2,
        pcr=2,
        min_buy_in=200,
        max_buy_in=2_000,
    )
    # Registration's password refusal is Italian on the Italian page.
    page: Browser = browser("nuovo", lang="it")
    page.resize(PHONE)
    page.open("/play/")
    page.fill("[data-role=register-username]", "nuovo")
    page.fill("[data-role=register-password]", "corta")
    page.fill_birth()
    page.click("[data-role=register]")
    page.wait_for(lambda: page.find("[data-role=auth-error]").is_displayed(), message="the refusal shown")
    said = page.text("[data-role=auth-error]")
    assert "Questa password è troppo corta. Deve contenere almeno 8 caratteri." in said, said
    assert "This password" not in said
    _check(page, "registration-refused")

    page.fill("[data-role=register-password]", PASSWORD)
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    # The lobby says the clock as the table does: in minutes, not "300 s a turn".
    clock = f"[data-role=table-row][data-table='{table.pk}'] [data-role=clock]"
    page.wait_present(clock, "the table's clock in the lobby")
    assert "turno 5 minuti + riserva di tempo 1 minuto e 30 secondi" in _text(page, clock), _text(page, clock)
    # No time bank: none named; and the column's name on the phone's card is one word, not "Tem / po".
    quick_clock = f"[data-role=table-row][data-table='{quick.pk}'] [data-role=clock]"
    assert _text(page, quick_clock).endswith("turno 30 secondi"), _text(page, quick_clock)
    label = page.driver.execute_script(
        "return getComputedStyle(document.querySelector(arguments[0]), '::before').whiteSpace", quick_clock
    )
    assert label == "nowrap", label
    nuovo = get_user_model().objects.get(username="nuovo")
    funded_wallet(nuovo, 1000)
    tables.sit(user=nuovo, table_id=table.pk, buy_in=500)
    page.open(f"/play/#/table/{table.pk}")
    page.wait_present("[data-role=table-head] .facts", "the table's head")
    facts = _text(page, "[data-role=table-head] .facts")
    assert "turno 5 minuti + riserva di tempo 1 minuto e 30 secondi" in facts, facts
    page.click("[data-role=leave]")
    page.wait_present("[data-role=leave-confirm]", "the leave confirmation")
    leave = _text(page, "[data-role=leave-confirm]")
    sign_out = _text(page, "[data-role=sign-out]")
    assert (leave, sign_out) == ("Lascia il tavolo ora", "Esci")
    _check(page, "leave-confirmation")


def test_the_tournament_pages_numbers_and_a_profile_after_one_game(
    browser: Any, live_server: Any, settings: Any
) -> None:
    boss = make_user("boss", is_staff=True, is_superuser=True)
    one = multi.multi_tournament(boss, name="Uno solo", payouts=[70, 30], guarantee=0)
    ann = _person("ann", chips=5000)
    bob = _person("bob", chips=5000)
    multi.register_all(one, [bob])
    page = _signed_in(browser, "ann")

    # One entrant: the prize table says 100 % for the whole pool; ann enters with "Iscriviti".
    page.open(f"/play/#/tournament/{one.pk}")
    page.wait_present("[data-role=payout-row]", "the prizes")
    rows = page.find_all("[data-role=payout-row]")
    assert len(rows) == 1
    cells = [c.text for c in rows[0].find_elements("css selector", "td")]
    assert cells[1] == "100 %", cells
    assert page.text("[data-role=register]") == "Iscriviti"
    _check(page, "one-entrant")

    # A finished tournament offers no table to open.
    sit_and_go = multi.multi_tournament(boss, name="Finito")
    multi.register_all(sit_and_go, [ann, bob])
    (closed,) = multi.start(sit_and_go, sizes=[2])
    multi.close_table(closed)
    type(sit_and_go).objects.filter(pk=sit_and_go.pk).update(status="finished", finished_at=timezone.now())
    page.open(f"/play/#/tournament/{sit_and_go.pk}")
    page.wait_text("[data-role=tournament-status]", "concluso", "the finished tournament")
    assert not page.find_all("[data-role=tables-panel]")
    assert not page.find_all("[data-role=watch-table]")
    _check(page, "finished-tournament")

    # One rated game: the profile says "1 partita" and its chart shows the rating.
    settings.RAMINO_RATINGS_PROVISIONAL_GAMES = 3
    finish_round(TableFactory.create(), {"ann": 40, "bob": -20})
    rating_services.update_ratings()
    page.open("/play/#/players/ann")
    page.wait_present("[data-role=profile-rating][data-game=rummy500] svg", "the chart")
    assert "dopo 1 partita valutata" in page.text("[data-role=profile-rating][data-game=rummy500]")
    points = page.find_all("[data-role=profile-rating] svg [data-role=rating-point]")
    assert len(points) == 1 and points[0].is_displayed()
    box = points[0].rect
    assert box["width"] > 0 and box["height"] > 0
    _check(page, "profile-one-game")

"""The table page as a person uses it, in English and Italian, on a laptop and a phone: the hand selected by
clicking and by keyboard and acted on (meld, lay off, discard) through the server's legal moves, sorted and
reordered by dragging (kept in the tab), focus kept across redraws, opponents' moves and "your turn" read out by
the live region, leaving mid-round asked first with what really happens; a tournament's table with no buy-in
or leave, points toward the target, and its results in words with a countdown to the next deal. Every page
state fits 390 px and has no axe-core violation.

The rounds are dealt in the test's process from a stacked deck, and no message leaves the process (no worker
deals or plays behind the test's back), so the hands and what they can do are known."""

from __future__ import annotations

import time
from typing import Any, cast

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from tests.browser.conftest import DESKTOP, PHONE, Browser
from tests.factories import PlayerFactory, TournamentFactory
from tests.tournaments.single_table.helpers import bots_play_the_round, game_of
from tournaments.engine import engine, stacked_deck
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Round, Seat, SeatStatus
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables
from tournaments.single_table import progress
from tournaments.tournament import registration

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "a-long-secret-9"
# The first to act: a run and a set to meld, a card that fits both (the player chooses), a card to discard.
FIRST = ["5H", "6H", "7H", "8S", "8D", "8C", "8H", "2C"]
OTHER = ["AS", "3D", "TC", "JS", "KD", "2S", "9C"]
SUITS = "SHDC"
RANKS = "A23456789TJQK"

WORDS = {
    "en": {
        "drew": "drew from the stock",
        "discarded": "discarded",
        "your_turn": "Your turn",
        "server": "the server plays your hand",
        "points_to": "to reach 500",
        "scores_points": "score points",
        "next_deal": "Next deal in",
        "tie": "tie",
    },
    "it": {
        "drew": "ha pescato dal tallone",
        "discarded": "ha scartato",
        "your_turn": "Tocca a te",
        "server": "il server gioca la tua mano",
        "points_to": "per arrivare a 500",
        "scores_points": "valgono punti",
        "next_deal": "Prossima distribuzione tra",
        "tie": "pareggio",
    },
}


@pytest.fixture(autouse=True)
def _no_message_to_a_worker(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[Any]]]:
    """The test deals and plays itself: no message leaves this process (a worker started for other tests of the
    session would otherwise deal the next round or play the clock behind the test's back)."""
    sent: list[tuple[str, list[Any]]] = []

    def keep(task_name: str, args: Any, countdown: float | None = None, *, queue: str | None = None) -> None:
        sent.append((task_name, list(args)))

    monkeypatch.setattr(dispatch, "send", keep)
    return sent


def _sign_in(browser: Any, name: str, lang: str) -> Browser:
    user = PlayerFactory.create(username=name)
    user.set_password(PASSWORD)
    user.save()
    page: Browser = browser(name, lang=lang)
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", name)
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")
    return page


def _stack_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    def new_round(rules: Any, *, players: Any, dealer: int, round_number: int) -> Any:
        first = (dealer + 1) % len(players)
        hands = [FIRST if seat == first else OTHER for seat in range(len(players))]
        deck = stacked_deck(rules, hands, dealer=dealer, up="5D", stock=["KC"])
        return engine.new_round(rules, list(players), dealer, round_number, deck=deck)

    monkeypatch.setattr(round_start, "new_round", new_round)


def _deal_now(game: Game) -> None:
    """Deal the next round here and now (the scheduled deal is minutes away, and no worker runs)."""
    Game.objects.filter(pk=game.pk).update(next_round_at=timezone.now())
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()


def _hand(page: Browser) -> list[str]:
    return cast(
        list[str],
        page.wait_for(
            lambda: [c.get_attribute("data-card") or "" for c in page.find_all("[data-role=hand-card]")],
            message="the hand",
        ),
    )


def _version(page: Browser) -> str:
    return page.attribute("[data-role=table-page]", "data-version")


def _card(page: Browser, code: str) -> str:
    return f"[data-role=hand-card][data-card='{code}']"


def _drag_last_card_to_the_front(page: Browser) -> None:
    """Drag the hand's last card before its first. A presence or clock message may redraw the hand between the
    finding and the drag: the pointer is then let go and the cards are found again."""

    def drag() -> None:
        cards = page.find_all("[data-role=hand-card]")
        try:
            ActionChains(page.driver).click_and_hold(cards[-1]).move_by_offset(-12, 0).pause(
                0.1
            ).move_to_element(cards[0]).move_by_offset(-4, 0).pause(0.1).release().perform()
        except StaleElementReferenceException:
            ActionChains(page.driver).reset_actions()  # lets go of a button a broken chain left pressed
            raise

    page._afresh(drag)


def _focused(page: Browser) -> dict[str, str]:
    return dict(
        page.driver.execute_script(
            "const e = document.activeElement;"
            "return {role: e.dataset.role || '', key: e.dataset.key || '', index: e.dataset.index || ''};"
        )
    )


def _keys(page: Browser, *keys: str) -> None:
    ActionChains(page.driver).send_keys(*keys).perform()


def _key_select(page: Browser, code: str) -> None:
    """Walk to `code` with the arrow keys from the focused card and select it with Space."""
    target = int(page.attribute(_card(page, code), "data-index"))
    here = int(_focused(page)["index"])
    step = Keys.ARROW_RIGHT if target > here else Keys.ARROW_LEFT
    for _ in range(abs(target - here)):
        _keys(page, step)
    page.wait_for(lambda: _focused(page)["index"] == str(target), message=f"focus on {code}")
    _keys(page, Keys.SPACE)
    page.wait_attribute(_card(page, code), "aria-pressed", "true", f"{code} selected by keyboard")


def _live(page: Browser) -> str:
    return page.attribute("[data-role=announcer]", "textContent")


def _both_sizes(page: Browser, label: str, size: tuple[int, int]) -> None:
    for each in (PHONE, DESKTOP):
        page.resize(each)
        page.assert_fits(label)
        page.assert_accessible(f"{label}-{each[0]}")
    page.resize(size)


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("it", PHONE)])
def test_the_hand_is_selected_sorted_dragged_and_played(
    browser: Any, live_server: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, lang: str, size: Any
) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300  # the test deals itself
    words = WORDS[lang]
    boss = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    table = tables.create_table(
        user=boss,
        game="rummy500",
        options={"turn_seconds": 300, "time_bank_seconds": 30, "hand_size_two_players": 10},
        seats=2,
        pcr=1,
        min_buy_in=100,
        max_buy_in=1_000,
    )
    pages = {name: _sign_in(browser, name, lang) for name in ("ann", "bob")}
    for name in pages:
        tables.sit(user=get_user_model().objects.get(username=name), table_id=table.pk, buy_in=500)
    _stack_the_deal(monkeypatch)
    game = Game.objects.get(table=table)
    _deal_now(game)
    first = game.turn_player
    second = "bob" if first == "ann" else "ann"
    fp, wp = pages[first], pages[second]
    for page in (fp, wp):
        page.resize(size)
        page.open(f"/play/#/table/{table.pk}")
        page.wait_attribute("[data-role=table-page]", "data-round", "1", "round 1 on the page")
    # "your turn" is read out to the first player (and the turn's clock is in words)
    fp.wait_for(lambda: words["your_turn"] in _live(fp), message="your turn announced")
    assert sorted(_hand(fp)) != [] and set(FIRST) <= set(_hand(fp))
    assert fp.text("[data-role=clock]").startswith(words["your_turn"])
    assert fp.find_all("[data-role=shortcuts]"), "the keyboard shortcuts are listed on the page"
    _both_sizes(fp, "hand", size)

    # sorting, by rank then by suit
    fp.click("[data-role=sort-rank]")
    by_rank = _hand(fp)
    assert by_rank == sorted(by_rank, key=lambda c: (RANKS.index(c[:-1]), SUITS.index(c[-1])))
    fp.click("[data-role=sort-suit]")
    by_suit = _hand(fp)
    assert by_suit == sorted(by_suit, key=lambda c: (SUITS.index(c[-1]), RANKS.index(c[:-1])))

    # a drag reorders the hand (the last card to the front), and the order survives a reload of the tab
    before = _hand(wp)
    _drag_last_card_to_the_front(wp)
    wp.wait_for(lambda: _hand(wp)[0] == before[-1], message="the dragged card first")
    dragged = _hand(wp)
    assert sorted(dragged) == sorted(before) and dragged[1:] == before[:-1]
    assert wp.find_all("[data-role=hand-card][aria-pressed=true]") == [], "a drag selects nothing"
    wp.driver.refresh()
    wp.wait_attribute("[data-role=table-page]", "data-round", "1")
    assert _hand(wp) == dragged

    # the waiting player's focus is on a card: it stays there when the other's move redraws the page
    wp.driver.execute_script("document.querySelectorAll('[data-role=hand-card]')[2].focus()")
    focus = _focused(wp)
    assert focus["role"] == "hand-card"
    version = _version(wp)

    fp.click("[data-role=board] button.stock")
    fp.wait_attribute("[data-role=table-page]", "data-phase", "play", "the draw on the page")
    wp.wait_for(lambda: _version(wp) != version, message="the draw reaches the other page")
    assert _focused(wp)["key"] == focus["key"], "focus kept across the redraw"
    wp.wait_for(lambda: words["drew"] in _live(wp), message="the opponent's draw announced")
    time.sleep(2.5)  # an idle spell: the page refreshes by itself (the long-poll's cap is 2 s in tests)
    assert _focused(wp)["key"] == focus["key"], "focus kept across the idle refresh"

    # select by clicking, then meld
    for code in ("5H", "6H", "7H"):
        fp.click(_card(fp, code))
    fp.wait_attribute(_card(fp, "7H"), "aria-pressed", "true")
    assert fp.find("[data-role=act-discard]").get_attribute("disabled") is not None
    fp.click("[data-role=act-meld]")
    fp.wait_for(lambda: len(fp.find_all("[data-role=melds] [data-role=meld]")) == 1, message="the run melded")
    assert not fp.find_all(_card(fp, "5H"))

    # select by keyboard (arrow keys and Space), Escape clears, then M melds
    fp.driver.execute_script("document.querySelector('[data-role=hand-card][tabindex=\"0\"]').focus()")
    _key_select(fp, "8S")
    _keys(fp, Keys.ESCAPE)
    fp.wait_for(lambda: not fp.find_all("[data-role=hand-card][aria-pressed=true]"), message="Escape clears")
    fp.driver.execute_script("document.querySelector('[data-role=hand-card][tabindex=\"0\"]').focus()")
    for code in ("8S", "8D", "8C"):
        _key_select(fp, code)
    _keys(fp, "m")
    fp.wait_for(lambda: len(fp.find_all("[data-role=melds] [data-role=meld]")) == 2, message="the set melded")

    # lay off: 8H fits the run and the set, so the page asks which, and the run is clicked on the table
    fp.click(_card(fp, "8H"))
    fp.click("[data-role=act-lay_off]")
    targets = fp.wait_for(lambda: fp.find_all("[data-role=lay-off-target]"), message="the melds to choose")
    assert len(targets) == 2 and len(fp.find_all("[data-role=pick-move]")) == 2
    fp.assert_accessible("lay-off-choice")
    fp.click("[data-role=lay-off-target]:has([data-card='5H'])")
    fp.wait_for(lambda: not fp.find_all(_card(fp, "8H")), message="8H laid off")
    # read on the page as it stands: the move's answer and then its event each draw the melds again
    placed = fp.driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((c) => c.dataset.card);",
        "[data-role=melds] [data-role=meld]:has([data-card='5H']) [data-card]",
    )
    assert placed == ["5H", "6H", "7H", "8H"]

    # discard one selected card: the turn passes, the other page reads out the discard and their turn
    fp.click(_card(fp, "2C"))
    version = _version(wp)
    fp.click("[data-role=act-discard]")
    wp.wait_for(lambda: _version(wp) != version, message="the discard reaches the other page")
    wp.wait_for(
        lambda: words["discarded"] in _live(wp) and words["your_turn"] in _live(wp),
        message="the discard and the turn announced",
    )
    assert Round.objects.get(game=game, number=1).ended_at is None
    _both_sizes(wp, "hand-turn", size)

    # leaving mid-round asks first and says what happens; Stay keeps the seat, Leave now marks it leaving
    wp.click("[data-role=leave]")
    confirm = wp.find("[data-role=leave-confirmation]")
    assert confirm.get_attribute("data-mid-round") == "true"
    assert words["server"] in confirm.text
    assert wp.driver.switch_to.active_element.get_attribute("data-role") == "leave-confirm"
    wp.assert_accessible("leave-confirmation")
    wp.click("[data-role=leave-cancel]")
    wp.wait_for(lambda: not wp.find_all("[data-role=leave-confirmation]"), message="Stay closes it")
    seat = Seat.objects.get(table=table, player__username=second, status__in=[SeatStatus.ACTIVE])
    wp.click("[data-role=leave]")
    wp.click("[data-role=leave-confirm]")
    wp.wait_present("[data-role=leaving]", "the page says the seat is leaving")
    seat.refresh_from_db()
    assert seat.status == SeatStatus.LEAVING


@pytest.mark.parametrize(("lang", "size"), [("it", PHONE), ("en", DESKTOP)])
def test_a_tournament_table_shows_points_to_the_target_and_its_results(
    browser: Any, live_server: Any, settings: Any, lang: str, size: Any
) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300
    words = WORDS[lang]
    admin = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    tournament = TournamentFactory.create(
        created_by=admin, name="Venerdì sit-and-go", target_score=500, max_entrants=2
    )
    pages = {name: _sign_in(browser, name, lang) for name in ("ann", "bob")}
    for name in pages:
        registration.register(user=get_user_model().objects.get(username=name), tournament_id=tournament.pk)
    game = game_of(tournament)
    _deal_now(game)
    page = pages["ann"]
    page.resize(size)
    page.open(f"/play/#/table/{game.table_id}")
    page.wait_attribute("[data-role=table-page]", "data-round", "1")
    # read afresh: a presence or clock message may redraw the head between the finding and the reading
    head = "[data-role=table-head]"
    assert page._afresh(lambda: page.reach(head).get_attribute("data-tournament")) == str(tournament.pk)
    assert "Venerdì sit-and-go" in page.text(head)
    # no buy-in, top-up or leave at a tournament's table; points, not chips, and how far the target is
    assert not page.find_all("[data-role=sit-form]") and not page.find_all("[data-role=leave]")
    assert page.find_all("[data-role=players] [data-role=points]")
    assert not page.find_all("[data-role=players] [data-role=chips]")
    assert words["points_to"] in page.text("[data-role=progress]")
    assert page.find_all("[data-role=hand-card]")
    _both_sizes(page, "tournament-table", size)

    round_ = bots_play_the_round(game)
    progress.advance(tournament_id=tournament.pk, round_id=round_.pk)
    assert Game.objects.get(pk=game.pk).next_round_at is not None
    page.wait_present("[data-role=results]", "the round's results")
    assert round_.result is not None
    mine = sum(r.result["game_points"]["ann"] for r in Round.objects.filter(game=game) if r.result)
    lines = " ".join(e.text for e in page.find_all("[data-role=result-line]"))
    if mine < 500:
        assert words["points_to"] in lines, lines
        left = f"{500 - mine:,}".replace(",", "." if lang == "it" else ",")
        assert left in lines, (left, lines)
    # no chips move at a one-table tournament's rounds: that is said, and "a tie" only for a real one
    no_transfer = page.text("[data-role=no-transfer]")
    assert words["scores_points"] in no_transfer
    if len(set((round_.scores or {}).values())) > 1:
        assert words["tie"] not in lines.lower() and words["tie"] not in no_transfer.lower()
    page.wait_for(lambda: words["next_deal"] in page.text("[data-role=countdown]"), message="the countdown")
    _both_sizes(page, "tournament-results", size)
    page.click("[data-role=results-dismiss]")
    page.wait_for(lambda: not page.find_all("[data-role=results]"), message="the results dismissed")

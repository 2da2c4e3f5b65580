"""The table as a game on one screen (docs/web.md "The table page"): seated, the page is exactly the viewport at
390x844, 360x640 and 1366x900, in Italian and English. A whole round is played by tapping the felt's stock, the
hand's cards and the action bar, never scrolling the document (its scroll height stays the viewport's); at each
player's turn every action button is inside the viewport; the opponents sit around the felt with their card
counts; the cards are the deck's SVG; the other player's moves fly as animations unless the player asks for
reduced motion; "your turn" sounds (WebAudio, on by default) and marks the tab's title; axe-core finds nothing.

The round is dealt in the test's process from a stacked deck and no message leaves the process, so the hands
and what they can do are known: the first player goes out on their second turn."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.browser.conftest import DESKTOP, PHONE, Browser
from tests.factories import PlayerFactory
from tests.ledger.utils import assert_reconciled
from tournaments.engine import engine, stacked_deck
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Round
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "a-long-secret-9"
SMALL = (360, 640)
# The first to act goes out on their second turn: draw, meld a run and a set, discard; then draw the 4♥, lay it
# off on the run, discard the last card.
FIRST = ["5H", "6H", "7H", "8S", "8D", "8C", "2C"]
OTHER = ["AS", "3D", "TC", "JS", "KD", "2S", "9C"]
STOCK = ["KC", "4D", "4H"]

TURN = {"en": "(Your turn)", "it": "(Tocca a te)"}
RING_TITLE = {"en": "Rummy 500 · Table {table}", "it": "Ramino 500 · Tavolo {table}"}

# Everything that must be reachable at the player's turn: the draws, the hand's action bar, the drawer's button.
ACTION_BUTTONS = "[data-role=stock-box] button, .hand-actions button, [data-role=drawer-toggle]"

NO_SCROLL = """
const d = document.documentElement;
return {scroll: d.scrollHeight, body: document.body.scrollHeight, inner: window.innerHeight,
        width: d.scrollWidth, innerWidth: window.innerWidth, y: window.scrollY};
"""

OUTSIDE = """
const out = [];
for (const el of document.querySelectorAll(arguments[0])) {
  const s = getComputedStyle(el);
  if (s.display === "none" || s.visibility === "hidden") continue;
  if (el.closest("[data-role=drawer]")) continue;
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5) {
    out.push(`${el.dataset.role || el.className} at ${Math.round(r.left)},${Math.round(r.top)}`
      + `-${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
}
return out;
"""

# Counts the cards that fly (felt.js's animations) from now on.
WATCH_FLIGHTS = """
window.__flights = 0;
new MutationObserver((records) => {
  for (const r of records) for (const n of r.addedNodes) if (n.classList && n.classList.contains("flying")) window.__flights += 1;
}).observe(document.body, {childList: true});
"""


# The tab in the background (true) or back (false), as the browser tells a page: document.hidden and the event.
AWAY = """
if (arguments[0]) Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
else delete document.hidden;
document.dispatchEvent(new Event("visibilitychange"));
"""


@pytest.fixture(autouse=True)
def _no_message_to_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test deals itself: no message leaves this process."""
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)


def _stack_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    def new_round(rules: Any, *, players: Any, dealer: int, round_number: int) -> Any:
        first = (dealer + 1) % len(players)
        hands = [FIRST if seat == first else OTHER for seat in range(len(players))]
        deck = stacked_deck(rules, hands, dealer=dealer, up="5D", stock=STOCK)
        return engine.new_round(rules, list(players), dealer, round_number, deck=deck)

    monkeypatch.setattr(round_start, "new_round", new_round)


def _sign_in(browser: Any, name: str, lang: str, size: tuple[int, int], reduced: bool) -> Browser:
    user = PlayerFactory.create(username=name)
    user.set_password(PASSWORD)
    user.save()
    page: Browser = browser(name, lang=lang)
    if reduced:
        page.driver.execute_cdp_cmd(
            "Emulation.setEmulatedMedia",
            {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]},
        )
    page.resize(size)
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", name)
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")
    return page


def _version(page: Browser) -> int:
    return int(page.attribute("[data-role=table-page]", "data-version") or 0)


def _hand(page: Browser) -> list[str]:
    # Found again when the client redraws the hand between the finding and the reading (page._afresh).
    return list(
        page._afresh(
            lambda: [c.get_attribute("data-card") or "" for c in page.find_all("[data-role=hand-card]")]
        )
    )


def _assert_one_screen(page: Browser, label: str) -> None:
    """No document scroll: the page is exactly the viewport, however the table stands."""
    m = page.driver.execute_script(NO_SCROLL)
    assert m["scroll"] == m["inner"] and m["body"] <= m["inner"], f"{page.name} {label}: {m}"
    assert m["width"] <= m["innerWidth"] and m["y"] == 0, f"{page.name} {label}: {m}"
    assert page.attribute("[data-role=table-page]", "class").split().count("one-screen") == 1


# The strip's title as it is laid out: its words, whether it is cut (content wider or taller than its box, an
# ellipsis) and whether it leaves the viewport.
TITLE = """
const el = document.querySelector("[data-role=table-page] .table-strip [data-role=strip-title]");
const r = el.getBoundingClientRect();
return {text: el.textContent, tag: el.tagName, ellipsis: getComputedStyle(el).textOverflow,
        cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
        inside: r.left >= 0 && r.right <= innerWidth + 0.5 && r.top >= 0,
        lines: Math.round(r.height / parseFloat(getComputedStyle(el).lineHeight))};
"""


def _assert_title_whole(page: Browser, words: str) -> None:
    """The seated table's title on its strip reads whole, not cut to "Tavolo #…" (at most two lines)."""
    got = page.driver.execute_script(TITLE)
    assert got["text"] == words and got["tag"] == "H1", got
    assert not got["cut"] and got["ellipsis"] != "ellipsis" and got["inside"], f"{page.name}: {got}"
    assert got["lines"] <= 2, f"{page.name}: more than two lines: {got}"


def _assert_actions_visible(page: Browser, label: str) -> None:
    assert page.find_all(".hand-actions button"), f"{page.name} {label}: no action bar"
    outside = page.driver.execute_script(OUTSIDE, ACTION_BUTTONS)
    assert outside == [], f"{page.name} {label}: outside the viewport: {outside}"


def _tap(page: Browser, css: str) -> None:
    """A tap: the element must be inside the viewport already (a tap cannot scroll the page first)."""
    inside = page.driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;",
        css,
    )
    assert inside, f"{page.name}: {css} is outside the viewport"
    page.click(css)


def _my_turn(page: Browser, label: str) -> None:
    page.wait_attribute("[data-role=table-page]", "data-my-turn", "true", f"{page.name}'s turn ({label})")
    _assert_one_screen(page, label)
    _assert_actions_visible(page, label)


def _draw(page: Browser) -> None:
    before = len(_hand(page))
    version = _version(page)
    _tap(page, "[data-role=stock-box] button")
    page.wait_for(lambda: _version(page) > version and len(_hand(page)) == before + 1, message="the draw")


def _play(page: Browser, cards: list[str], action: str) -> None:
    for code in cards:
        css = f"[data-role=hand-card][data-card='{code}']"
        _tap(page, css)
        page.wait_attribute(css, "aria-pressed", "true", f"{code} selected")
    _assert_one_screen(page, f"{cards} selected")
    _assert_actions_visible(page, f"{cards} selected")
    _tap(page, f"[data-role=act-{action}]")
    page.wait_for(lambda: not any(c in _hand(page) for c in cards), message=f"{action} {cards}")
    _assert_one_screen(page, f"after {action}")


@pytest.mark.parametrize(
    ("ann", "bob"),
    [
        (("it", PHONE), ("en", DESKTOP)),
        (("en", PHONE), ("it", SMALL)),
        (("it", DESKTOP), ("en", SMALL)),
    ],
    ids=["it-390-en-1366", "en-390-it-360", "it-1366-en-360"],
)
def test_a_whole_round_is_played_by_tapping_on_one_screen(
    browser: Any,
    live_server: Any,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    ann: tuple[str, tuple[int, int]],
    bob: tuple[str, tuple[int, int]],
) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300  # the results stay: the test deals itself
    boss = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    table = tables.create_table(
        user=boss,
        game="rummy500",
        options={"turn_seconds": 300, "time_bank_seconds": 30},
        seats=2,
        pcr=1,
        min_buy_in=100,
        max_buy_in=1_000,
    )
    # bob asks for reduced motion: no card flies on his page, while they fly on ann's
    langs = {"ann": ann[0], "bob": bob[0]}
    pages = {
        "ann": _sign_in(browser, "ann", ann[0], ann[1], reduced=False),
        "bob": _sign_in(browser, "bob", bob[0], bob[1], reduced=True),
    }
    for name in pages:
        tables.sit(user=get_user_model().objects.get(username=name), table_id=table.pk, buy_in=500)
    _stack_the_deal(monkeypatch)
    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk).update(next_round_at=timezone.now())
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()
    first = game.turn_player
    second = "bob" if first == "ann" else "ann"
    fp, wp = pages[first], pages[second]
    for page in pages.values():
        page.open(f"/play/#/table/{table.pk}")
        page.wait_attribute("[data-role=table-page]", "data-round", "1", "round 1 on the page")
        page.driver.execute_script(WATCH_FLIGHTS)
        _assert_one_screen(page, "dealt")
        _assert_title_whole(page, RING_TITLE[langs[page.name]].format(table=table.pk))
        # the opponent sits on the felt with their cards as a count; the cards are the deck's drawings
        other = "bob" if page is pages["ann"] else "ann"
        seat = f"[data-role=seat][data-username={other}]"
        page.wait_text(f"{seat} [data-role=seat-count]", "7", "the opponent's seat with 7 cards")
        assert page.find_all("[data-role=hand-card] svg.card-svg"), "cards drawn as SVG"
        # each card's name in words for screen readers (its hidden text)
        named = page.attribute(
            f"[data-role=hand-card][data-card='{_hand(page)[0]}'] .card-label", "textContent"
        )
        assert "(" in named and len(named) > 5, named
    # the sound is on by default, one switch in the navigation; "your turn" played and in the tab's title
    fp.wait_for(
        lambda: "turn" in fp.driver.execute_script("return Ramino.notify.played"), message="turn sound"
    )
    assert fp.driver.execute_script("return Ramino.notify.soundOn()") is True
    assert fp.driver.title.startswith(TURN[langs[first]]), fp.driver.title
    assert not wp.driver.title.startswith(TURN[langs[second]])
    # the tab goes to the background at the player's turn: its favicon is marked, and unmarked on coming back
    icon = "return document.querySelector('link[rel=icon]').getAttribute('href')"
    plain = fp.driver.execute_script(icon)
    fp.driver.execute_script(AWAY, True)
    assert fp.driver.execute_script(icon).startswith("data:image/svg+xml")
    assert fp.attribute("html", "data-icon-marked") == "true"
    fp.driver.execute_script(AWAY, False)
    assert fp.driver.execute_script(icon) == plain
    # the player to act has the clock's ring on their seat on the other's page, and the turn bar runs
    wp.wait_attribute(f"[data-role=seat][data-username={first}]", "data-acting", "true", "the acting seat")
    assert wp.find_all(f"[data-role=seat][data-username={first}] .timer-ring")
    fp.wait_for(
        lambda: fp.attribute("[data-role=turn-bar]", "data-mine") == "true", message="the turn bar is mine"
    )
    for page, label in ((fp, "turn"), (wp, "waiting")):
        page.assert_accessible(f"one-screen-{label}-{page.driver.execute_script('return innerWidth')}")
        page.screenshot(f"{label}")

    # the first turn: draw, meld a run, meld a set, discard
    _my_turn(fp, "first turn")
    _draw(fp)
    _play(fp, ["5H", "6H", "7H"], "meld")
    _play(fp, ["8S", "8D", "8C"], "meld")
    fp.screenshot("melded")
    _play(fp, ["2C"], "discard")
    # the other's turn: draw, discard
    _my_turn(wp, "second player's turn")
    wp.wait_for(lambda: len(wp.find_all("[data-role=melds] [data-role=meld]")) == 2, message="the melds")
    _draw(wp)
    _play(wp, ["AS"], "discard")
    # the first again: draw the 4♥, lay it off on the run, discard the last card: out
    _my_turn(fp, "second turn")
    _draw(fp)
    _play(fp, ["4H"], "lay_off")
    fp.screenshot("laid-off")
    _play(fp, ["KC"], "discard")

    round_ = Round.objects.get(game=game, number=1)
    assert round_.ended_at is not None
    for page in pages.values():
        page.wait_present("[data-role=results]", "the round's results over the felt", timeout=20)
        _assert_one_screen(page, "results")
        # the panel lies over the felt, inside the screen (a long one scrolls within itself)
        outside = page.driver.execute_script(OUTSIDE, "[data-role=results]")
        assert outside == [], outside
        page.assert_accessible(f"one-screen-results-{page.driver.execute_script('return innerWidth')}")
        page.screenshot("results")
    # the other's moves flew on ann's page; on bob's (reduced motion) nothing moved
    assert pages["bob"].driver.execute_script("return window.__flights") == 0
    assert pages["ann"].driver.execute_script("return window.__flights") > 0
    assert "end" in fp.driver.execute_script(
        "return Ramino.notify.played"
    ) or "end" in wp.driver.execute_script("return Ramino.notify.played")
    assert_reconciled()


MOVED = {
    "it": "Sei stato spostato al tavolo {to} (dal tavolo {frm}).",
    "en": "You were moved to table {to} (from table {frm}).",
}
LEVEL = {"it": "Livello 1 · PCR 1", "en": "Level 1 · PCR 1"}
FINAL = {"it": "Il tavolo finale", "en": "The final table"}
TOURNAMENT_TITLE = {"it": "Domenica · Tavolo {table}", "en": "Domenica · Table {table}"}


@pytest.mark.parametrize(("lang", "size"), [("it", PHONE), ("en", SMALL)], ids=["it-390", "en-360"])
def test_a_tournament_table_shows_its_strip_and_a_move_is_a_notice_at_the_new_table(
    browser: Any, live_server: Any, lang: str, size: tuple[int, int]
) -> None:
    from django.db import transaction

    from tests.ledger.utils import funded_wallet, make_user
    from tests.tournaments.multi_table.reads import helpers as multi
    from tournaments.live.models import Table, TableStatus
    from tournaments.multi_table import seating
    from tournaments.tournament.models import TournamentEntry

    boss = make_user("boss", is_staff=True, is_superuser=True)
    people = {}
    for name in ("ann", "bob", "cid", "dan"):
        people[name] = PlayerFactory.create(username=name)
        people[name].set_password(PASSWORD)
        people[name].save()
        funded_wallet(people[name], 1000)
    t = multi.multi_tournament(boss, name="Domenica")
    multi.register_all(t, list(people.values()))
    one, two = multi.start(t, sizes=[2, 2])
    page: Browser = browser("ann", lang=lang)
    page.resize(size)
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", "ann")
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")
    page.open(f"/play/#/table/{one.pk}")
    page.wait_present("[data-role=tournament-strip]", "the tournament's strip")
    # the start alert (shown on the lobby) goes once the player is at its table: nothing covers the strip
    page.wait_for(lambda: not page.find_all("[data-role=start-alert]"), message="the start alert gone")
    _assert_one_screen(page, "tournament table")
    # the title names the tournament and the table, whole (the drawer's head keeps "Tournament table · ...")
    _assert_title_whole(page, TOURNAMENT_TITLE[lang].format(table=one.pk))
    assert page.text("[data-role=strip-level]") == LEVEL[lang]
    assert page.find_all("[data-role=strip-rise]"), "the rounds until the level rises"
    assert page.text("[data-role=strip-place]").endswith("4")
    stack = t.starting_stack or 0
    # the average stack: everyone still has the starting stack (written as the language writes numbers)
    assert str(stack) in page.text("[data-role=strip-average]").replace(".", "").replace(",", "")
    page.assert_accessible(f"tournament-strip-{size[0]}")
    page.screenshot("strip")

    # The tournament breaks table one: ann moves to table two; the page goes there and says so over the felt.
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
    page.wait_shown("[data-role=moment-moved]", "the moved notice over the felt")
    assert page.text("[data-role=moment-moved] [data-role=moved]") == MOVED[lang].format(
        to=two.pk, frm=one.pk
    )
    # found again: a presence or clock event may redraw the felt between two reads
    assert page._afresh(lambda: page.find("[data-role=moment-moved]").is_displayed())
    _assert_one_screen(page, "moved")
    page.assert_accessible(f"moved-{size[0]}")
    page.screenshot("moved")
    page.click("[data-role=moment-moved] [data-role=moment-close]")
    # one table left in play: the final table's moment, and the strip says it
    page.wait_shown("[data-role=moment-final-table]", "the final table's moment")
    assert page.text("[data-role=moment-final-table] .moment-title") == FINAL[lang]
    page.wait_present("[data-role=strip-final]", "the strip's final table")
    page.screenshot("final-table")
    page.click("[data-role=moment-final-table] [data-role=moment-close]")
    page.wait_for(lambda: not page.find_all("[data-role=moment-final-table]"), message="the moment closed")
    _assert_one_screen(page, "final table")
    assert_reconciled()

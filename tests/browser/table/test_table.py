"""Two people in two browser contexts, by clicking only: they register, sit with a buy-in and play a whole
round to its settlement on a live server with a real Celery worker, see the settlement the ledger posted,
see the deal's seal verified in the page and leave with their chips; a private table is joined by its code."""

from __future__ import annotations

import json
import time
from functools import partial
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from selenium.common.exceptions import StaleElementReferenceException

from ledger import selectors as ledger_selectors
from ledger.services import postings
from tests.browser.conftest import Browser
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Game, Round, Seat
from tournaments.live.tables import services as tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "a-long-secret-9"
CREDIT = 5_000
BUY_IN = 1_000
# The order a player here picks among the legal moves the page offers: placing cards first (a round ends
# sooner), then a pile draw (a card from some depth of the pile, when its use is possible), then the stock.
PREFERENCE = ["meld", "lay_off", "swap_joker", "call_rummy", "pile", "stock", "pass_claim", "discard"]


def _register(browser: Any, name: str, boss: Any) -> Browser:
    page: Browser = browser(name)
    page.open("/play/")
    page.fill("[data-role=register-username]", name)
    page.fill("[data-role=register-password]", PASSWORD)
    page.fill_birth()
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    user = get_user_model().objects.get(username=name)
    postings.adjust_wallet(
        user=user, amount=CREDIT, reason="welcome", idempotency_key=f"welcome:{name}", posted_by=boss
    )
    return page


def _hand_codes(page: Browser) -> list[str]:
    return [card.get_attribute("data-card") or "" for card in page.find_all("[data-role=hand] [data-card]")]


def _version(page: Browser) -> str:
    return page.find("[data-role=table-page]").get_attribute("data-version") or ""


def _kind(move: dict[str, Any]) -> str:
    if move["type"] == "draw":
        return "stock" if move["source"] == "stock" else "pile"
    return str(move["type"])


# What the page offers, read in one script (one drawing's buttons and version, and far fewer round trips to the
# browser than asking each button in turn: a round is some eighty clicks).
_OFFERED = """
const page = document.querySelector("[data-role=table-page]");
if (!page) return null;
const list = page.querySelector("details[data-role=moves]");
const buttons = [...page.querySelectorAll("[data-role=move]")].filter((b) => b.getClientRects().length > 0);
return {open: !list || list.open, version: page.dataset.version || "", buttons: buttons,
        moves: buttons.map((b) => b.dataset.move || "{}")};
"""


def _act(page: Browser, clicks: dict[str, int]) -> bool:
    """Click one of the legal moves the page shows, if any; True when a move was clicked and the page
    moved on to a new version."""
    offered_now = page.driver.execute_script(_OFFERED)
    if not offered_now:
        return False
    try:
        if not offered_now["open"]:
            # the legal-move list is collapsible (closed at first; the page keeps it open across redraws)
            page.click("[data-role=moves-toggle]")
            return False
        if not offered_now["buttons"]:
            return False
        version = offered_now["version"]
        offered = [
            (b, json.loads(m)) for b, m in zip(offered_now["buttons"], offered_now["moves"], strict=True)
        ]
        # a couple of pile draws per game, then the stock (taking from the pile is no progress: a round of
        # pile draws alone ends by stalling)
        preference = PREFERENCE if clicks.get("pile", 0) < 2 else [k for k in PREFERENCE if k != "pile"]
        offered.sort(
            key=lambda pair: preference.index(_kind(pair[1])) if _kind(pair[1]) in preference else 99
        )
        button, move = offered[0]
        button.click()
    except StaleElementReferenceException:
        return False  # the page re-rendered under us (an event arrived): look again
    clicks[_kind(move)] = clicks.get(_kind(move), 0) + 1
    page.wait_for(lambda: _version(page) != version, message=f"the page to show the result of {move}")
    return True


def test_two_players_play_a_round_to_settlement_by_clicking(
    browser: Any, live_server: Any, celery_worker_process: Any, settings: Any
) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 0.5
    boss = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    # 15 cards each leave a stock of 23: a round of a few dozen clicks, however it is played
    table = tables.create_table(
        user=boss,
        game="rummy500",
        options={"turn_seconds": 30, "time_bank_seconds": 15, "hand_size_two_players": 15},
        seats=2,
        pcr=2,
        min_buy_in=200,
        max_buy_in=2_000,
    )
    pages = {name: _register(browser, name, boss) for name in ("ann", "bob")}
    for page in pages.values():
        page.click("[data-role=nav-wallet]")
        page.click("[data-role=nav-lobby]")
        row = f"[data-role=tables] [data-role=table-row][data-table='{table.pk}']"
        page.wait_present(row, "the table in the lobby")
        page.screenshot("lobby")
        page.fill(f"{row} [data-role=buy-in]", BUY_IN)
        page.click(f"{row} [data-role=sit]")
        page.find("[data-role=table-page]")
    game = Game.objects.get(table=table)
    for page in pages.values():
        page.wait_attribute(
            "[data-role=table-page]",
            "data-round",
            "1",
            "round 1 to be dealt (by the worker) and reach the page by the long-poll",
            timeout=30,
        )
    # the round's last click settles it in the web process: a long pause before the next deal lets the
    # players leave between rounds
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300

    for page in pages.values():
        # the page may redraw the hand between the lookup and the read (a stale element): read it again then
        codes = page.wait_for(partial(_hand_codes, page), message="the dealt hand")
        assert len(codes) == 15, codes
        suits = [code[-1] if not code.startswith("JK") else "Z" for code in codes]
        assert suits == sorted(suits, key="SHDCZ".index), codes  # the hand is sorted by suit
        assert page.text("[data-role=clock]"), "the turn clock shows"
        page.screenshot("dealt")

    clicks: dict[str, int] = {}
    shot = False
    deadline = time.monotonic() + 240
    while not Round.objects.filter(game=game, number=1, settled=True).exists():
        assert time.monotonic() < deadline, f"round 1 not over after {clicks}"
        acted = [_act(page, clicks) for page in pages.values()]
        if not any(acted):
            time.sleep(0.1)
        if not shot and Game.objects.get(pk=game.pk).version > 12:
            for page in pages.values():
                page.screenshot("mid-round")
            shot = True
    round_ = Round.objects.get(game=game, number=1)
    assert round_.ended_at is not None and clicks.get("discard", 0) >= 2 and clicks.get("stock", 0) >= 1, (
        clicks
    )
    # every move of the round was a click: the server played none of them
    assert not [e for e in game.events.filter(kind="move") if e.public.get("server_played")]

    shown_transfers: list[tuple[str, str, int]] = []
    for name, page in pages.items():
        selector = "[data-role=round][data-number='1'][data-settled='true']"
        page.wait_present(selector, "round 1's results")
        # the results panel says in words what the round did to this player, and counts down to the next deal
        said = page.text("[data-role=results] [data-role=result-line]")
        outcome = {t["from"]: "You lost" for t in round_.transfers} | {
            t["to"]: "You won" for t in round_.transfers
        }
        tie = len(set((round_.scores or {}).values())) == 1
        expected = outcome.get(name) or ("A tie" if tie else "No chips")
        assert said.startswith(expected), said
        assert page.text("[data-role=results] [data-role=countdown]").startswith("Next deal in")
        result = page.find(selector)
        scores = {
            row.get_attribute("data-username"): int(row.text.split()[-1])
            for row in result.find_elements("css selector", "[data-role=round-score]")
        }
        assert scores == round_.scores
        shown = [
            (
                li.get_attribute("data-from") or "",
                li.get_attribute("data-to") or "",
                int(li.get_attribute("data-amount") or 0),
            )
            for li in result.find_elements("css selector", "[data-role=transfer]")
        ]
        assert shown == [(t["from"], t["to"], t["amount"]) for t in round_.transfers]
        shown_transfers = shown
        # the deal's seal: checked in the page by itself against the revealed deck and salt, the commitment
        # behind its details
        page.wait_attribute(
            f"{selector} [data-role=seal]", "data-state", "verified", "the deal verified in the page"
        )
        result = page.find(selector)
        assert (
            result.find_element("css selector", "[data-role=commitment]").get_attribute("textContent")
            == round_.deal_commitment
        )
        page.screenshot("round-over")

    # the settlement the page showed is the one the ledger holds: one transfer between the seat stacks
    posted = list(ledger_selectors.transfer_list().filter(round_id=round_.pk, kind="settlement"))
    legs: dict[str, int] = {}
    for payer, payee, amount in shown_transfers:
        legs[payer] = legs.get(payer, 0) - amount
        legs[payee] = legs.get(payee, 0) + amount
    assert len(posted) == (1 if legs else 0)
    for posted_transfer in posted:
        entries = posted_transfer.entries.select_related("account__user")
        assert {e.account.user.username if e.account.user else "": e.amount for e in entries} == legs

    for page in pages.values():
        # leaving asks first, and says what happens: between rounds the stack goes back at once
        page.click("[data-role=leave]")
        assert page.attribute("[data-role=leave-confirmation]", "data-mid-round") == "false"
        assert "wallet" in page.text("[data-role=leave-explanation]")
        page.click("[data-role=leave-confirm]")
    for name in pages:
        deadline = time.monotonic() + 30
        while Seat.objects.filter(table=table, player__username=name).exclude(status="left").exists():
            assert time.monotonic() < deadline, f"{name} still seated"
            time.sleep(0.2)
    wallets: dict[str, int] = {}
    for name, page in pages.items():
        page.click("[data-role=nav-wallet]")
        page.wait_present("[data-role=wallet-row][data-kind=cash_out]", "the cash-out")
        user = get_user_model().objects.get(username=name)
        wallets[name] = ledger_selectors.wallet_balance(user=user)
        page.wait_text("[data-role=wallet-balance]", f"{wallets[name]:,}", "the wallet balance")
        kinds = [row.get_attribute("data-kind") for row in page.find_all("[data-role=wallet-row]")]
        assert kinds == ["cash_out", "buy_in", "adjustment"]
        page.screenshot("wallet-after")
    assert sum(wallets.values()) == 2 * CREDIT
    for payer, payee, _amount in shown_transfers:  # chips changed hands as the page said
        assert wallets[payee] > CREDIT > wallets[payer]
    assert_reconciled()


def test_a_private_table_is_joined_by_its_code(browser: Any, live_server: Any, settings: Any) -> None:
    # no deal during this test: the players only sit and leave
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300
    boss = get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    ann = _register(browser, "ann", boss)
    bob = _register(browser, "bob", boss)

    ann.fill("[data-role=create-min_buy_in]", 100)
    ann.fill("[data-role=create-max_buy_in]", 800)
    ann.fill("[data-role=create-pcr]", 3)
    ann.fill("[data-role=create-buy_in]", 500)
    ann.click("[data-role=create]")
    code = ann.text("[data-role=table-code]")
    assert len(code) == 8
    table_id = int(ann.attribute("[data-role=table-page]", "data-table") or 0)
    # the creator sits down with the table, with the buy-in the form took
    ann.wait_for(lambda: ann.find_all("[data-role=leave]"), message="ann seated")
    assert Seat.objects.get(table_id=table_id).stack_account.balance == 500

    # the lobby lists only public tables: bob cannot see it, he joins by the code
    bob.click("[data-role=nav-wallet]")
    bob.click("[data-role=nav-lobby]")
    bob.find("[data-role=open-tables] [data-role=tables-empty]")
    bob.fill("[data-role=join-code]", "WRONGCDE")
    bob.fill("[data-role=join-buy-in]", 400)
    bob.click("[data-role=join]")
    bob.wait_for(lambda: bob.find("[data-role=flash]").is_displayed(), message="a wrong code is refused")
    bob.screenshot("wrong-code")
    bob.fill("[data-role=join-code]", code.lower())
    bob.click("[data-role=join]")
    bob.wait_for(
        lambda: bob.find("[data-role=table-page]").get_attribute("data-table") == str(table_id),
        message="bob at the table",
    )
    assert bob.text("[data-role=table-code]") == code
    seated = set(Seat.objects.filter(table_id=table_id).values_list("player__username", flat=True))
    assert seated == {"ann", "bob"}
    # a sit is no game event: ann's page shows him after its next look at the table (a reload here)
    ann.driver.refresh()
    ann.wait_for(lambda: ann.find_all("[data-role=player][data-username=bob]"), message="ann sees bob")
    bob.screenshot("private-table")
    ann.screenshot("private-table")

    # his lobby remembers the table for him now, with its seats taken
    bob.click("[data-role=nav-lobby]")
    mine = bob.find(f"[data-role=my-tables-list] [data-role=table-row][data-table='{table_id}']")
    assert mine.find_element("css selector", "[data-role=seats]").text == "2 / 2"

    for page in (ann, bob):
        page.open(f"/play/#/table/{table_id}")
        page.click("[data-role=leave]")
        page.click("[data-role=leave-confirm]")
    deadline = time.monotonic() + 15
    while Seat.objects.filter(table_id=table_id).exclude(status="left").exists():
        assert time.monotonic() < deadline
        time.sleep(0.2)
    assert {
        name: ledger_selectors.wallet_balance(user=get_user_model().objects.get(username=name))
        for name in ("ann", "bob")
    } == {"ann": CREDIT, "bob": CREDIT}
    assert_reconciled()

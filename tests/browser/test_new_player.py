"""Issue 21's whole path, in Italian on a phone (390x844): a new player registers and gets the house's welcome
chips, sits at a ring table from the lobby and plays a round by selecting cards (draw, two melds, the last
discard: they go out), registers for a sit-and-go, is alerted when it starts and goes to the table, and once
the server has played it to the end sees their place and prize on the tournament page. Every page on the way
fits the phone and passes axe-core."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ledger.models import GrantPolicy
from ledger.services import accounts
from tests.browser.conftest import PHONE, Browser, hand_cards, play_selected
from tests.clients import api_client
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.engine import engine, stacked_deck
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, Round, Table
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables
from tournaments.tournament import registration
from tournaments.tournament.models import Tournament, TournamentEntry

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

NAME = "niccolò"
PASSWORD = "una-parola-lunga-9"
# The new player's hand: a run and a set that take every card but the one drawn, which is then discarded.
MINE = ["4H", "5H", "6H", "7H", "8S", "8D", "8C"]
THEIRS = ["AS", "3D", "TC", "JS", "KD", "2S", "9C"]


def _check(page: Browser, label: str) -> None:
    page.assert_fits(label)
    page.assert_accessible(label)


def _stack_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    def new_round(rules: Any, *, players: Any, dealer: int, round_number: int) -> Any:
        hands = [MINE if name == NAME else THEIRS for name in players]
        deck = stacked_deck(rules, hands, dealer=dealer, up="5D", stock=["KC", "QD"])
        return engine.new_round(rules, list(players), dealer, round_number, deck=deck)

    monkeypatch.setattr(round_start, "new_round", new_round)


def test_a_new_italian_player_on_a_phone_from_registration_to_a_sit_and_go_prize(
    browser: Any, live_server: Any, celery_worker_process: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300  # one ring round is enough here
    GrantPolicy.objects.create(enabled=True, welcome_chips=1000, daily_floor=500)
    boss = make_user("boss", is_staff=True, is_superuser=True)
    ring = tables.create_table(
        user=boss,
        game="rummy500",
        options={"turn_seconds": 300, "time_bank_seconds": 30, "hand_size_two_players": 7},
        seats=2,
        pcr=1,
        min_buy_in=100,
        max_buy_in=1_000,
    )
    bob = make_user("bob")
    funded_wallet(bob, 1000)

    # Registration, the welcome chips, the wallet.
    page: Browser = browser("niccolo", lang="it")
    page.resize(PHONE)
    page.open("/play/")
    _check(page, "sign-in")
    page.fill("[data-role=register-username]", NAME)
    page.fill("[data-role=register-password]", PASSWORD)
    page.fill_birth()
    page.click("[data-role=register]")
    page.find("[data-role=lobby]")
    # (Italian groups thousands from five digits on: 1000, but 10.000)
    page.wait_for(
        lambda: "Benvenuto! Hai ricevuto 1000 fiches" in page.attribute("[data-role=flash]", "textContent"),
        message="the welcome chips",
    )
    me = get_user_model().objects.get(username=NAME)
    assert accounts.get_wallet(user=me).balance == 1000
    _check(page, "lobby")
    page.click("[data-role=nav-wallet]")
    page.wait_text("[data-role=wallet-balance]", "1000", message="the balance")
    _check(page, "wallet")

    # A ring table: sit from the lobby; the round is dealt here from a stacked deck (no message leaves).
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)
    _stack_the_deal(monkeypatch)
    page.click("[data-role=nav-lobby]")
    row = f"[data-role=tables] [data-role=table-row][data-table='{ring.pk}']"
    page.wait_present(row, "the ring table in the lobby")
    page.fill(f"{row} [data-role=buy-in]", 500)
    page.click(f"{row} [data-role=sit]")
    page.find("[data-role=table-page]")
    tables.sit(user=bob, table_id=ring.pk, buy_in=500)
    game = Game.objects.get(table=ring)
    Game.objects.filter(pk=game.pk).update(next_round_at=None)
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()
    if game.turn_player == "bob":  # bob draws from the stock and discards; then it is the new player's turn
        bob_client = api_client(bob)
        for move in ({"type": "draw", "source": "stock"}, {"type": "discard", "card": "AS"}):
            game.refresh_from_db()
            answer = bob_client.post(
                f"/api/v1/games/{game.pk}/moves/",
                {**move, "expected_version": game.version},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"bob-{move['type']}",
            )
            assert answer.status_code == 200, answer.content
    page.wait_attribute("[data-role=table-page]", "data-round", "1", "the round on the page")
    page.wait_for(lambda: set(MINE) <= set(hand_cards(page)), message="the dealt hand")
    _check(page, "ring-table")
    page.click("[data-role=board] button.stock")
    page.wait_attribute("[data-role=table-page]", "data-phase", "play", "the draw on the page")
    play_selected(page, ["4H", "5H", "6H", "7H"], "meld")
    play_selected(page, ["8S", "8D", "8C"], "meld")
    (last,) = page.wait_for(lambda: len(hand_cards(page)) == 1 and hand_cards(page), message="one card left")
    play_selected(page, [last], "discard")
    page.wait_present("[data-role=results]", "the round's results")
    round_ = Round.objects.get(game=game, number=1)
    assert round_.result is not None and round_.result["details"]["went_out"] == NAME
    won = sum(t["amount"] for t in round_.transfers if t["to"] == NAME)
    results = page.text("[data-role=results]")  # read afresh: an event may have redrawn the panel
    assert won > 0 and f"{won} fiches" in results, results
    _check(page, "ring-results")
    monkeypatch.undo()  # from here the worker deals and plays, as on the site
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 1

    # A sit-and-go (a quick game of two rounds): register from the lobby; it starts when full.
    clocks = {"turn_seconds": 1, "time_bank_seconds": 0, "max_timeouts": 1, "max_timeouts_per_round": 1}
    tournament = new_tournament(
        boss,
        name="Sit-and-go delle nove",
        kind="quick",
        rounds=2,
        max_entrants=3,
        payouts=[70, 30],
        options=clocks,
    )
    others = [make_user(name) for name in ("cid", "dan")]
    for other in others:
        funded_wallet(other, 1000)
    page.click("[data-role=nav-lobby]")
    entry_row = f"[data-role=tournament-row][data-tournament='{tournament.pk}']"
    page.click(f"{entry_row} [data-role=register]")
    page.wait_text(f"{entry_row} [data-role=entrants]", "1 / 3", message="registered")
    _check(page, "lobby-registered")
    for other in others:
        registration.register(user=other, tournament_id=tournament.pk)
    page.wait_present("[data-role=start-alert]", "the start alert", timeout=20)
    assert "Il tuo torneo è iniziato." in page.text("[data-role=start-alert]")
    _check(page, "start-alert")
    page.click("[data-role=go-to-table]")
    page.wait_attribute("body", "data-page", "table", message="at the tournament's table")
    assert page.driver.execute_script("return location.hash") == (
        f"#/table/{Table.objects.get(tournament=tournament).pk}"
    )
    _check(page, "tournament-table")

    # The server plays the absent players' turns (one-second clocks) to the end.
    deadline = time.monotonic() + 180
    while Tournament.objects.get(pk=tournament.pk).status != "finished":
        assert time.monotonic() < deadline, "the sit-and-go did not finish"
        time.sleep(1)
    page.open(f"/play/#/tournament/{tournament.pk}")
    page.wait_present("[data-role=tournament-results]", "the results")
    entry = TournamentEntry.objects.get(tournament=tournament, player=me)
    assert entry.place is not None
    said = page.text("[data-role=my-result]")
    assert f" {entry.place}" in said, said
    mine = f"[data-role=standing-row][data-username='{NAME}']"
    assert page.text(f"{mine} [data-role=standing-place]") == str(entry.place)
    assert page.text(f"{mine} [data-role=standing-prize]") == (f"{entry.prize}" if entry.prize else "\u2013")
    _check(page, "tournament-results")
    assert_reconciled()

"""Practice tables, my rounds and the replay viewer in a real Chromium.

In Italian on a phone (390x844): a signed-in player opens Practice from the lobby, starts a Rummy 500 table
against one bot, plays the round by clicking while the bot moves by itself through the worker, sees the result in
points ("no chips"), finds the table in no lobby list, opens My rounds and the round's replay, steps through it to
the result, and ends the practice. In English on a laptop: the replay viewer of a round played in the test's
process, by its buttons, keys, slider and autoplay, against the round the server recorded. Every page fits and
passes axe-core."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework import serializers
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from ledger.models import Transfer
from tests.browser.conftest import DESKTOP, PHONE, Browser, hand_cards, play_selected
from tests.factories import PlayerFactory
from tests.ledger.utils import assert_reconciled
from tests.tournaments.practice.helpers import play_out_round
from tournaments.engine import Ruleset, stacked_deck
from tournaments.live.messaging import dispatch
from tournaments.live.models import Game, MoveLog, Round, Table, TableStatus
from tournaments.live.rounds import start as round_start
from tournaments.practice import services
from tournaments.practice.services import StackedDeal
from tournaments.practice.views import PracticeInputSerializer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PASSWORD = "una-parola-lunga-9"
NAME = "giulia"
# The player's hand: a run and a set that take every card but the one drawn, which is then discarded (going out).
# The bot's melds nothing; it plays first (the player deals), so it moves by itself before the player's turn.
MINE = ["4H", "5H", "6H", "7H", "8S", "8D", "8C"]
THEIRS = ["AS", "3D", "TC", "JS", "KD", "2S", "9C"]
PLACED = 4 + 5 + 6 + 7 + 8 * 3


def _sign_in(browser: Any, name: str, lang: str) -> Browser:
    user = PlayerFactory.create(username=name, chips=0)
    user.set_password(PASSWORD)
    user.save()
    page: Browser = browser(name, lang=lang)
    page.open("/play/")
    page.fill("[data-role=sign-in-username]", name)
    page.fill("[data-role=sign-in-password]", PASSWORD)
    page.click("[data-role=sign-in]")
    page.find("[data-role=lobby]")
    return page


def _check(page: Browser, label: str) -> None:
    page.assert_fits(label)
    page.assert_accessible(label)


def _step(page: Browser) -> int:
    return int(page.attribute("[data-role=replay]", "data-step"))


def _keys(page: Browser, *keys: str) -> None:
    ActionChains(page.driver).send_keys(*keys).perform()


def _no_hard_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server as it is until a stronger bot exists: the level "hard" is not one of its choices."""
    fields = dict(PracticeInputSerializer._declared_fields)
    fields["level"] = serializers.ChoiceField(choices=["easy", "medium"])
    monkeypatch.setattr(PracticeInputSerializer, "_declared_fields", fields)


def _stack_the_first_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The live server's POST /practice/ starts the table with a stacked first deal (the worker deals it)."""
    start = services.start_practice
    rules = Ruleset.preset("rummy500")
    deck = stacked_deck(rules, [MINE, THEIRS], dealer=0, up="5D", stock=["KC", "QD"])

    def stacked(**kwargs: Any) -> Any:
        return start(**kwargs, deal=StackedDeal(deck=tuple(deck), dealer=NAME))

    monkeypatch.setattr(services, "start_practice", stacked)


def test_practice_against_a_bot_then_its_replay_in_italian_on_a_phone(
    browser: Any, live_server: Any, celery_worker_process: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The round ends with the player's move (here, in the live server): no next deal during the test.
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 300
    _stack_the_first_deal(monkeypatch)
    _no_hard_bots(monkeypatch)
    transfers = Transfer.objects.count()
    page = _sign_in(browser, NAME, "it")
    page.resize(PHONE)

    # Practice, from the lobby: the form offers every preset and the bots' strength.
    page.click("[data-role=lobby-practice]")
    page.wait_present("[data-role=practice-form]", "the practice form")
    games = [o.get_attribute("value") for o in page.find_all("[data-role=practice-game] option")]
    assert games == ["rummy500", "rummy500_household", "basic", "block", "wrotham", "romme", "board"]
    assert "Ramino 500" in page.text("[data-role=practice-game]")
    _check(page, "practice-form")
    # A server without hard bots refuses the level (400 request.invalid naming `level`): the page says so in
    # words, stops offering "hard" and selects "medium".
    page.click("[data-role=practice-level-hard]")
    page.click("[data-role=practice-start]")
    error = page.wait_present("[data-role=practice-error]:not([hidden])", "the refusal of hard bots")
    assert error.text.startswith("Questo server non ha ancora bot difficili: scegli facile o medio."), (
        error.text
    )
    assert "Forza dei bot:" in error.text and "level" not in error.text, error.text
    assert page.find("[data-role=practice-level-hard]").get_attribute("disabled") is not None
    assert page.find("[data-role=practice-level-medium]").is_selected()
    assert not Table.objects.filter(practice=True).exists()
    _check(page, "practice-refused")
    page.click("[data-role=practice-start]")

    # The table page: the bot plays first, by itself, through the worker; then the player's turn.
    page.wait_attribute("body", "data-page", "table", message="at the practice table")
    table = Table.objects.get(practice=True, created_by__username=NAME)
    assert page.driver.execute_script("return location.hash") == f"#/table/{table.pk}"
    page.wait_text("[data-role=practice-label]", "Allenamento — senza fiches")
    page.wait_present("[data-role=board] button.stock", "the player's turn, after the bot's", timeout=30)
    game = Game.objects.get(table=table)
    assert MoveLog.objects.filter(round__game=game, player="Bot Anna", server_played=True).count() >= 2
    page.wait_for(lambda: set(MINE) <= set(hand_cards(page)), message="the dealt hand")
    # No chips: neither a buy-in nor a chips column.
    assert not page.find_all("[data-role=sit-form]") and not page.find_all(
        "[data-role=players] [data-role=chips]"
    )
    _check(page, "practice-table")

    # The player draws, lays down the run and the set, and goes out with the last card.
    page.click("[data-role=board] button.stock")
    page.wait_attribute("[data-role=table-page]", "data-phase", "play", "the draw on the page")
    play_selected(page, ["4H", "5H", "6H", "7H"], "meld")
    play_selected(page, ["8S", "8D", "8C"], "meld")
    (last,) = page.wait_for(lambda: len(hand_cards(page)) == 1 and hand_cards(page), message="one card left")
    play_selected(page, [last], "discard")
    page.wait_present("[data-role=results]", "the round's results")
    # (the panel is drawn again as the round's events arrive: read afresh each time)
    page.wait_for(
        lambda: "nessuna fiche in gioco" in page.text("[data-role=results]"), message="the result in words"
    )
    words = page.wait_for(lambda: page.text("[data-role=results]"), message="the results' words")
    assert f"In questa mano hai fatto {PLACED} punti." in words, words
    round_ = Round.objects.get(game=game, number=1)
    assert round_.scores is not None and round_.scores[NAME] == PLACED and round_.transfers == []
    _check(page, "practice-results")

    # Never in the lobby's lists (neither the open tables nor the player's own).
    page.click("[data-role=nav-lobby]")
    page.wait_for(
        lambda: page.find_all("[data-role=tables], [data-role=tables-empty]"), message="the open tables"
    )
    page.wait_for(lambda: page.attribute("[data-role=lobby]", "data-refreshed"), message="the lists read")
    assert not page.find_all(f"[data-role=table-row][data-table='{table.pk}']")

    # My rounds: the round, marked practice, with the player's score; its replay.
    page.click("[data-role=nav-rounds]")
    row = page.wait_present(
        f"[data-role=round-row][data-game='{game.pk}'][data-round='1']", "the round listed"
    )
    assert row.get_attribute("data-practice") == "true"
    assert "allenamento" in row.text and "Ramino 500" in row.text and "Bot Anna" in row.text
    assert page.text(f"[data-role=round-row][data-game='{game.pk}'] [data-role=round-score]") == (
        f"Il tuo punteggio: {PLACED} punti"
    )
    _check(page, "my-rounds")
    page.click(f"[data-role=round-row][data-game='{game.pk}'] [data-role=replay-link]")

    # The replay, step by step: the deal, the bot's moves, the player's, the result.
    page.wait_present("[data-role=replay]", "the replay")
    steps = int(page.attribute("[data-role=replay]", "data-steps"))
    moves = MoveLog.objects.filter(round=round_).count()
    assert steps >= moves + 1
    assert page.text("[data-role=step-count]") == f"Passo 1 di {steps}"
    assert "ha distribuito le carte" in page.text("[data-role=step-text]")
    assert sorted(
        c.get_attribute("data-card") or "" for c in page.find_all("[data-role=replay-hand] .card")
    ) == sorted(MINE)
    assert not page.find_all("[data-role=replay-result]")
    _check(page, "replay-deal")
    page.click("[data-role=replay-next]")
    page.wait_text("[data-role=step-count]", f"Passo 2 di {steps}")
    assert page.text("[data-role=step-text]").startswith("Bot Anna ")
    said = []
    while _step(page) < steps:
        page.click("[data-role=replay-next]")
        said.append(page.text("[data-role=step-text]"))
    assert any(s.startswith(f"{NAME} ha pescato dal tallone.") and "Hai pescato" in s for s in said), said
    assert any(f"{NAME} ha calato 4♥ 5♥ 6♥ 7♥." in s for s in said), said
    assert said[-1].endswith("La mano è finita."), said
    result = page.wait_present("[data-role=replay-result]", "the result at the last step")
    assert f"{NAME} ha chiuso." in result.text
    assert page.attribute(f"[data-role=result-score][data-username='{NAME}']", "data-score") == str(PLACED)
    assert page.text("[data-role=no-transfer]") == "Allenamento: nessuna fiche in gioco."
    assert page.find_all("[data-role=replay-board] [data-role=meld]") and not page.find_all(
        "[data-role=replay-hand] .card"
    )
    _check(page, "replay-result")

    # Back at the table, the player ends the practice: the table closes.
    page.open(f"/play/#/table/{table.pk}")
    page.click("[data-role=leave]")
    page.click("[data-role=leave-confirm]")
    page.wait_present("[data-role=practice-over]", "the practice over")
    assert Table.objects.get(pk=table.pk).status == TableStatus.CLOSED
    _check(page, "practice-over")
    assert Transfer.objects.count() == transfers
    assert_reconciled()


def test_the_replay_viewer_in_english_on_a_laptop(
    browser: Any, live_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The round is played here, in the test's process (no message leaves it): the player greedily, two bots.
    monkeypatch.setattr(dispatch, "send", lambda *args, **kwargs: None)
    page = _sign_in(browser, "ann", "en")
    page.resize(DESKTOP)
    ann = get_user_model().objects.get(username="ann")
    table = services.start_practice(player=ann, game="rummy500", bots=2, level="easy")
    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk).update(next_round_at=timezone.now())
    assert round_start.start_round(game_id=game.pk) is not None
    round_ = play_out_round(game_id=game.pk, player=ann)
    assert round_.ended_at is not None and round_.scores

    page.open(f"/play/#/replay/{game.pk}/1")
    page.wait_present("[data-role=replay]", "the replay")
    steps = int(page.attribute("[data-role=replay]", "data-steps"))
    assert steps >= MoveLog.objects.filter(round=round_).count() + 1
    assert page.text("[data-role=step-count]") == f"Step 1 of {steps}"
    assert page.find("h1").text == "Replay · Rummy 500 · round 1"
    names = [li.get_attribute("data-username") for li in page.find_all("[data-role=replay-player]")]
    assert names == list(round_.players)
    _check(page, "replay-en-deal")

    # The keys: right and left step, End and Home jump; the buttons; the slider.
    _keys(page, Keys.ARROW_RIGHT)
    page.wait_text("[data-role=step-count]", f"Step 2 of {steps}")
    _keys(page, Keys.END)
    page.wait_text("[data-role=step-count]", f"Step {steps} of {steps}")
    page.wait_present("[data-role=replay-result]", "the result")
    for name, score in round_.scores.items():
        assert page.attribute(f"[data-role=result-score][data-username='{name}']", "data-score") == str(score)
    assert page.text("[data-role=no-transfer]") == "Practice: no chips change hands."
    _check(page, "replay-en-result")
    _keys(page, Keys.ARROW_LEFT)
    page.wait_text("[data-role=step-count]", f"Step {steps - 1} of {steps}")
    assert not page.find_all("[data-role=replay-result]")
    _keys(page, Keys.HOME)
    page.wait_text("[data-role=step-count]", f"Step 1 of {steps}")
    page.click("[data-role=replay-last]")
    page.wait_text("[data-role=step-count]", f"Step {steps} of {steps}")
    page.click("[data-role=replay-first]")
    page.wait_text("[data-role=step-count]", f"Step 1 of {steps}")
    page.click("[data-role=replay-slider]")  # a click on the slider's middle: a step near the middle
    page.wait_for(lambda: 1 < _step(page) < steps, message="the slider moved the replay")
    assert page.attribute("[data-role=replay-slider]", "aria-valuetext") == page.text(
        "[data-role=step-count]"
    )

    # Autoplay moves on by itself, and pauses.
    page.click("[data-role=replay-first]")
    page.click("[data-role=replay-play]")
    assert page.text("[data-role=replay-play]") == "Pause"
    page.wait_for(lambda: _step(page) >= 3, message="autoplay", timeout=10)
    page.click("[data-role=replay-play]")
    paused = _step(page)
    assert page.text("[data-role=replay-play]") == "Play"
    page.wait_for(lambda: _step(page) == paused, message="paused")
    # Each step is read out by the live region, its cards by name.
    assert page.attribute("[data-role=replay-announcer]", "textContent").startswith(
        f"Step {paused} of {steps}."
    )

    # Another player follows the landing page's practice link: signed in, they land on the practice form; a
    # game's own route picks that game.
    bob = PlayerFactory.create(username="bob", chips=0)
    bob.set_password(PASSWORD)
    bob.save()
    other: Browser = browser("bob", lang="en")
    other.open("/")
    other.click("main a[data-link=practice]")
    other.fill("[data-role=sign-in-username]", "bob")
    other.fill("[data-role=sign-in-password]", PASSWORD)
    other.click("[data-role=sign-in]")
    other.wait_present("[data-role=practice-form]", "the practice form after signing in")
    assert other.find("[data-role=practice-game]").get_attribute("value") == "rummy500"
    other.open("/play/#/practice/basic")
    other.wait_for(
        lambda: other.find("[data-role=practice-game]").get_attribute("value") == "basic",
        message="Basic Rummy",
    )
    # Someone who did not play the round cannot replay it.
    other.open(f"/play/#/replay/{game.pk}/1")
    other.wait_present("[data-role=replay-missing]", "no replay for bob")

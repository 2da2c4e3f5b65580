"""The landing page's demo (docs/web.md "The demo"), in headless Chromium on a phone (390x844), in Italian and in
English: from the landing page's Demo button, a visitor becomes a guest and plays the guided round against Bot
Anna (the real worker deals it and moves the bot) by following the guide, clicking what it highlights, to the
score explained; every step fits the phone and passes axe-core; no chip moves. In Italian the newcomer then
practises against bots and replays the demo's round from "My rounds". A player who strays gets general help."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from accounts.selectors import is_guest
from ledger.models import Transfer
from tests.browser.conftest import PHONE, Browser
from tests.ledger.utils import assert_reconciled
from tournaments.live.models import Round
from tournaments.practice.demo import script as demo_script
from tournaments.practice.models import PracticeTable

MINUS = "\u2212"  # the minus sign the page writes between placed and in hand
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

WORDS = {
    "it": {
        "invitation": "Impara a giocare a Ramino 500 in meno di 2 minuti!",
        "step": "passo 1 di 8",
        "hint": "Bloccato?",
        "kings": "Bot Anna ha calato tre re",
        "mine": f"Tu: 59 calati {MINUS} 0 in mano = 59 punti",
        "bot": f"Bot Anna: 30 calati {MINUS} 14 in mano = 16 punti",
        "register": "Crea un account",
        "strayed": "Hai lasciato il percorso della demo",
    },
    "en": {
        "invitation": "Learn to play Rummy 500 in less than 2 minutes!",
        "step": "step 1 of 8",
        "hint": "Stuck?",
        "kings": "Bot Anna melded three kings",
        "mine": f"You: 59 placed {MINUS} 0 in hand = 59 points",
        "bot": f"Bot Anna: 30 placed {MINUS} 14 in hand = 16 points",
        "register": "Create an account",
        "strayed": "You left the demo's path",
    },
}


def _check(page: Browser, label: str) -> None:
    page.assert_fits(label)
    page.assert_accessible(label)


# The guide's step and what it highlights, read in one script: one drawing's, never a step with the next one's
# targets (clicking those would play a step the test never saw).
_STEP_AND_TARGETS = """
const guide = document.querySelector("[data-role=demo-guide]");
const targets = [...document.querySelectorAll("[data-guide-target=true]")].filter(
  (el) => !el.disabled && el.getClientRects().length > 0);
return [guide ? guide.dataset.step : "", targets];
"""


def _step_and_targets(page: Browser) -> tuple[str, list[WebElement]]:
    step, targets = page.driver.execute_script(_STEP_AND_TARGETS)
    return str(step), list(targets)


def _start(page: Browser, lang: str) -> None:
    page.resize(PHONE)
    page.open("/")
    invitation = page.text("[data-role=landing-demo]")
    assert WORDS[lang]["invitation"] in invitation, invitation
    _check(page, "landing")
    page.click("[data-role=link-demo]")
    page.wait_present("[data-role=demo-guide][data-step=draw_stock]", "the guide's first step", timeout=30)


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_demo_played_by_following_its_instructions(
    browser: Any, live_server: Any, celery_worker_process: Any, lang: str
) -> None:
    transfers = Transfer.objects.count()
    page: Browser = browser("visitor", lang=lang)
    _start(page, lang)
    words = WORDS[lang]
    assert words["step"] in page.text("[data-role=demo-guide] h2")
    seen: list[str] = []
    deadline = time.monotonic() + 120
    while True:
        step, targets = _step_and_targets(page)
        if step == "score":
            break
        assert time.monotonic() < deadline, f"the demo stopped at {step} after {seen}"
        if step not in seen:
            seen.append(step)
            page.wait_for(lambda: page.text("[data-role=demo-instruction]"), message=f"{step}'s instruction")
            if step == "deep_draw":  # the bot's turn explained
                page.wait_for(
                    lambda: words["kings"] in page.text("[data-role=demo-news]"), message="the bot's moves"
                )
            if step != "bot_turn":
                _check(page, step)
            continue  # read again: the page may have moved on while it was checked
        wait_for_hint = step == "discard" and "hint" not in seen
        if wait_for_hint:
            # The hint's delay (15 s) shortened: after the next click, no progress for a while.
            page.driver.execute_script("window.Ramino.demo.hintSeconds = 0.3")
        if not targets:
            time.sleep(0.1)
            continue
        target = targets[0]
        try:
            target.click()
        except StaleElementReferenceException:
            continue  # redrawn since it was read: read again
        WebDriverWait(page.driver, 15).until(expected_conditions.staleness_of(target))
        if wait_for_hint:
            seen.append("hint")
            page.wait_for(
                lambda: words["hint"] in page.text("[data-role=demo-hint]"), message="the hint", timeout=5
            )
            page.driver.execute_script("window.Ramino.demo.hintSeconds = 15")
    assert [s for s in seen if s not in ("bot_turn", "hint")] == [
        s.key for s in demo_script.STEPS if s.move is not None
    ], seen

    # The score explained: placed minus in hand, for both.
    scores = page.text("[data-role=demo-scores]")
    assert words["mine"] in scores and words["bot"] in scores, scores
    assert page.attribute("[data-role=demo-practice]", "href").endswith("#/practice")
    assert page.text("[data-role=demo-register]") == words["register"]
    _check(page, "score")

    # A guest, without chips; no transfer posted; the round was the scripted one.
    guest = get_user_model().objects.get(username=page.text("[data-role=whoami]"))
    assert is_guest(user=guest)
    practice = PracticeTable.objects.get(player=guest)
    round_ = Round.objects.get(game__table=practice.table, number=1)
    assert round_.scores == {guest.get_username(): 59, demo_script.BOT: 16}
    if lang == "it":
        _then_practise_and_replay(page, guest=guest.get_username(), demo_game=round_.game_id)
    assert Transfer.objects.count() == transfers
    assert_reconciled()


def _then_practise_and_replay(page: Browser, *, guest: str, demo_game: int) -> None:
    """The newcomer goes on from the demo's end: practises against bots, then replays the demo's round."""
    page.click("[data-role=demo-practice]")
    page.wait_present("[data-role=practice-form]", "the practice form")
    _check(page, "practice-form")
    page.click("[data-role=practice-start]")
    page.wait_attribute("body", "data-page", "table", message="at the practice table")
    page.wait_text("[data-role=practice-label]", "Allenamento — senza fiches")
    practice = PracticeTable.objects.filter(player__username=guest, demo=False).get()
    assert practice.table.status == "open"
    _check(page, "practice-table")
    page.click("[data-role=nav-rounds]")
    row = f"[data-role=round-row][data-game='{demo_game}'][data-round='1']"
    page.wait_present(row, "the demo's round in my rounds")
    assert page.text(f"{row} [data-role=round-score]") == "Il tuo punteggio: 59 punti"
    page.click(f"{row} [data-role=replay-link]")
    page.wait_present("[data-role=replay]", "the demo's replay")
    steps = int(page.attribute("[data-role=replay]", "data-steps"))
    page.click("[data-role=replay-last]")
    page.wait_text("[data-role=step-count]", f"Passo {steps} di {steps}")
    result = page.wait_present("[data-role=replay-result]", "the demo's result in the replay")
    assert f"{guest} ha chiuso." in result.text, result.text
    assert page.attribute(f"[data-role=result-score][data-username='{guest}']", "data-score") == "59"
    _check(page, "demo-replay")


def test_a_player_who_strays_gets_general_help(
    browser: Any, live_server: Any, celery_worker_process: Any
) -> None:
    page: Browser = browser("stray", lang="en")
    _start(page, "en")
    # Instead of the stock, the pile's card: the script has no such step, the guide helps all the same.
    page.click("[data-role=board] button.pile-card")
    page.wait_attribute("[data-role=demo-guide]", "data-step", "help", "general help")
    assert WORDS["en"]["strayed"] in page.text("[data-role=demo-instruction]")
    _check(page, "strayed")

"""The demo's stacked deal (tournaments/practice/demo/script.py): the guide's script played through the engine,
the player following every instruction and the bot played by the greedy bot, as at the demo's practice table."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.engine import Ruleset, apply_move, full_deck, legal_moves, new_round, player_view
from tournaments.engine.bots import GreedyBot
from tournaments.engine.state import RoundState
from tournaments.practice.demo import script as demo

RULES = Ruleset.preset(demo.GAME)
ME = "Guest AB23CD"


def start(order: str) -> RoundState:
    players = [ME, demo.BOT] if order == "player-first" else [demo.BOT, ME]
    return new_round(RULES, players, players.index(demo.DEALER), deck=demo.deck())


def step_now(state: RoundState) -> demo.Step | None:
    return demo.current_step(player_view(state, ME), ME, legal_moves(state, ME))


def test_the_deck_holds_every_card_once_and_deals_the_scripted_hands() -> None:
    assert Counter(demo.deck()) == Counter(full_deck(RULES, 2))
    assert len(demo.deck()) == 54
    state = start("player-first")
    assert state.to_act == ME  # the bot deals, the player on its left starts
    assert Counter(state.hand_of(ME)) == Counter(demo.PLAYER_HAND)
    assert Counter(state.hand_of(demo.BOT)) == Counter(demo.BOT_HAND)
    assert state.discard == (demo.UP_CARD,)
    assert state.stock[: len(demo.STOCK_TOP)] == demo.STOCK_TOP


@pytest.mark.parametrize("order", ["player-first", "bot-first"])
def test_following_the_guide_every_step_comes_up_in_order_and_the_player_goes_out(order: str) -> None:
    state = start(order)
    bot = GreedyBot()
    seen: list[str] = []
    for _ in range(40):
        step = step_now(state)
        assert step is not None, f"off the script after {seen}: {player_view(state, ME)}"
        if not seen or seen[-1] != step.key:
            seen.append(step.key)
        if step.key == "score":
            break
        if step.key == "bot_turn":
            made = []
            while state.to_act == demo.BOT:
                move = bot.choose(state, demo.BOT)
                made.append(move)
                state = apply_move(state, demo.BOT, move)
            assert len(made) == len(step.bot_moves)
            assert all(demo.same_move(a, b) for a, b in zip(made, step.bot_moves, strict=True)), made
            continue
        assert step.move is not None
        legal = [m for m in legal_moves(state, ME) if demo.same_move(m, step.move)]
        assert legal, step.key
        state = apply_move(state, ME, legal[0])
    assert seen == [s.key for s in demo.STEPS]

    assert state.phase == "over" and state.result is not None
    details = state.result.details
    assert details["reason"] == "out" and details["went_out"] == ME
    score = next(s for s in demo.STEPS if s.key == "score").scores
    assert dict(state.result.scores) == {ME: score[demo.PLAYER], demo.BOT: score["bot"]}
    # The scoring the guide explains: placed minus in hand.
    mine, bots = details["players"][ME], details["players"][demo.BOT]
    assert (mine["placed_value"], mine["hand_value"]) == (59, 0)
    assert (bots["placed_value"], bots["hand_value"]) == (30, 14)
    # The steps the seed's rules ask for, each met by the engine's state on the way:
    placed = Counter(c.split(":")[0] for c in mine["placed"])
    assert placed == Counter(["8S", "8D", "8H", "3C", "4C", "JK", "6C", "7C", "KH"])
    melds = {m.id: (m.owner, m.cards, m.placers) for m in state.melds}
    assert melds["m1"][0] == demo.BOT and "KH" in melds["m1"][1]  # laid off on the bot's meld
    assert melds["m1"][2][melds["m1"][1].index("KH")] == ME
    assert "JK:5C" in melds["m3"][1]  # a run with a joker


def test_the_deep_draw_obliges_the_player_to_use_the_8_of_hearts() -> None:
    """After the deep draw the 8♥ must be used: discarding first is refused, and the guide's next step uses it."""
    state = start("player-first")
    bot = GreedyBot()
    state = apply_move(state, ME, {"type": "draw", "source": "stock"})
    state = apply_move(state, ME, {"type": "discard", "card": "QS"})
    while state.to_act == demo.BOT:
        state = apply_move(state, demo.BOT, bot.choose(state, demo.BOT))
    state = apply_move(state, ME, {"type": "draw", "source": "discard", "card": "8H", "index": 0})
    assert state.must_use == "8H"
    assert len(state.hand_of(ME)) == 10  # the 8♥ and the two cards above it
    assert not any(m["type"] == "discard" for m in legal_moves(state, ME) if m.get("card") == "8H")
    step = step_now(state)
    assert step is not None and step.key == "meld_set" and "8H" in step.select


def test_off_the_script_the_guide_has_no_step() -> None:
    """A player who melds the run in the first turn has left the script: no step matches (general help)."""
    state = start("player-first")
    state = apply_move(state, ME, {"type": "draw", "source": "stock"})
    state = apply_move(state, ME, {"type": "meld", "cards": ["3C", "4C", "JK:5C", "6C"]})
    assert step_now(state) is None


def test_taking_the_up_card_at_once_is_off_the_script() -> None:
    """The 8♥ taken at the first turn (it was the pile's only card): the set could be melded, but the script's
    steps for it come after the bot's kings, so the guide gives general help rather than a wrong story."""
    state = start("player-first")
    state = apply_move(state, ME, {"type": "draw", "source": "discard", "card": "8H", "index": 0})
    assert step_now(state) is None


def test_the_greedy_bot_is_deterministic_on_the_demo_deal() -> None:
    """The bot's turn is the same however often it is asked (it holds no state)."""
    state = start("player-first")
    state = apply_move(state, ME, {"type": "draw", "source": "stock"})
    state = apply_move(state, ME, {"type": "discard", "card": "QS"})
    runs = []
    for _ in range(3):
        s, made = state, []
        while s.to_act == demo.BOT:
            move = GreedyBot().choose(s, demo.BOT)
            made.append(move)
            s = apply_move(s, demo.BOT, move)
        runs.append(made)
    assert runs[0] == runs[1] == runs[2]


def test_the_script_is_json() -> None:
    import json

    data = demo.script()
    assert json.loads(json.dumps(data)) == data
    assert [s["key"] for s in data] == [s.key for s in demo.STEPS]

"""StrongBot (the practice tables' "hard" bot): legal moves in random rounds of every preset, the same choice
whatever the hidden cards, the table reading from the public log, and a small head-to-head against the greedy bot
(the full match-up is tests/benchmarks/bench_strong_bot.py)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tournaments.engine import Ruleset, apply_move, close_claims, new_round
from tournaments.engine.bots import GreedyBot, RandomBot
from tournaments.engine.rules import implemented_presets
from tournaments.engine.state import RoundState, freeze
from tournaments.engine.strong_bot import StrongBot, public_state, read_table

from .stacking import stacked_round

PRESETS = implemented_presets()
EXAMPLES = settings(max_examples=4, deadline=None)
R500 = Ruleset.preset("rummy500")


def _round(preset: str, n: int, deal_seed: int) -> RoundState:
    rules = Ruleset.preset(preset)
    number = 1 + deal_seed % 6 if preset == "wrotham" else 1
    return new_round(
        rules, [f"p{i}" for i in range(n)], dealer=deal_seed % n, round_number=number, seed=deal_seed
    )


def _others(seed: int, n: int) -> dict[str, Any]:
    """Seat 0 is the strong bot; the others are greedy or random (so that odd positions come up)."""
    rng = random.Random(seed)
    bots: dict[str, Any] = {"p0": StrongBot(seed)}
    for i in range(1, n):
        bots[f"p{i}"] = GreedyBot() if rng.random() < 0.5 else RandomBot(seed + i)
    return bots


def _step(state: RoundState, bots: dict[str, Any]) -> RoundState:
    if not state.may_act:
        return close_claims(state)
    player = state.may_act[0]
    return apply_move(state, player, bots[player].choose(state, player))


@pytest.mark.parametrize("preset", PRESETS)
@EXAMPLES
@given(deal_seed=st.integers(0, 2**31), play_seed=st.integers(0, 2**31), n=st.integers(2, 4))
def test_every_move_is_accepted_and_the_round_ends(
    preset: str, deal_seed: int, play_seed: int, n: int
) -> None:
    state = _round(preset, n, deal_seed)
    bots = _others(play_seed, n)
    strong_moves = 0
    for _ in range(3000):
        if state.phase == "over":
            break
        if state.may_act and state.may_act[0] == "p0":
            strong_moves += 1  # apply_move below raises IllegalMove for a refused move
        state = _step(state, bots)
    assert state.phase == "over" and state.result is not None
    # A round may end before seat 0's first turn (an opponent goes out or closes at once): nothing to check.
    assume(strong_moves > 0)


def _redeal_hidden(state: RoundState, player: str, rng: random.Random) -> RoundState:
    """The same public round with the cards ``player`` cannot see dealt anew: the other hands and the
    stock keep their sizes; the deck and the salt change too."""
    seat = state.players.index(player)
    pool = [c for i, h in enumerate(state.hands) if i != seat for c in h] + list(state.stock)
    rng.shuffle(pool)
    hands = []
    at = 0
    for i, h in enumerate(state.hands):
        if i == seat:
            hands.append(h)
        else:
            hands.append(tuple(sorted(pool[at : at + len(h)])))
            at += len(h)
    deck = list(state.deck)
    rng.shuffle(deck)
    own = state.own
    if "trump_seat" in own and own.get("trump_seat") != seat:
        others = [None, *[i for i in range(len(state.players)) if i != seat]]
        own = freeze({**{k: own[k] for k in own}, "trump_seat": rng.choice(others)})
    return replace(
        state, hands=tuple(hands), stock=tuple(pool[at:]), deck=tuple(deck), salt=f"x{rng.random()}", own=own
    )


@pytest.mark.parametrize("preset", PRESETS)
@EXAMPLES
@given(deal_seed=st.integers(0, 2**31), play_seed=st.integers(0, 2**31), n=st.integers(2, 3))
def test_the_choice_does_not_depend_on_hidden_cards(
    preset: str, deal_seed: int, play_seed: int, n: int
) -> None:
    state = _round(preset, n, deal_seed)
    bots = _others(play_seed, n)
    rng = random.Random(play_seed)
    checked = 0
    for _ in range(3000):
        if state.phase == "over":
            break
        if state.may_act and state.may_act[0] == "p0":
            chosen = bots["p0"].choose(state, "p0")
            for _k in range(2):
                other = _redeal_hidden(state, "p0", rng)
                assert other.hands != state.hands or other.stock != state.stock or len(other.stock) <= 1
                assert public_state(other, "p0") == public_state(state, "p0")
                assert StrongBot(play_seed).choose(other, "p0") == chosen
            checked += 1
            state = apply_move(state, "p0", chosen)
            continue
        state = _step(state, bots)
    # As above: a round that ended before seat 0 played checks nothing.
    assume(checked > 0)


class _Peeking(StrongBot):
    """A cheat: it looks at the top of the stock. The check above must catch such a bot."""

    def choose(self, state: RoundState, player: str) -> dict[str, Any]:
        move = super().choose(state, player)
        free = state.must_use is None and not state.jokers_to_meld
        if move["type"] == "discard" and free and state.stock and state.stock[0][0] in "2468TQ":
            spare = [c for c in state.hand_of(player) if c not in state.reserved]
            return {"type": "discard", "card": max(spare)}
        return move


def test_the_hidden_card_check_catches_a_bot_that_peeks() -> None:
    rng = random.Random(1)
    caught = False
    for seed in range(10):
        state = _round("rummy500", 2, seed)
        bots: dict[str, Any] = {"p0": _Peeking(), "p1": GreedyBot()}
        while state.phase != "over" and not caught:
            if state.may_act and state.may_act[0] == "p0":
                chosen = bots["p0"].choose(state, "p0")
                caught = any(
                    _Peeking().choose(_redeal_hidden(state, "p0", rng), "p0") != chosen for _ in range(3)
                )
                state = apply_move(state, "p0", chosen)
                continue
            state = _step(state, bots)
    assert caught


def test_the_public_state_hides_every_other_hand_the_stock_the_deck_and_the_salt() -> None:
    state = _round("rummy500", 3, 7)
    public = public_state(state, "p1")
    assert public.hand_of("p1") == state.hand_of("p1")
    assert [len(h) for h in public.hands] == [len(h) for h in state.hands]
    assert len(public.stock) == len(state.stock)
    assert public.deck == () and public.salt == ""
    assert (public.discard, public.melds, public.log) == (state.discard, state.melds, state.log)
    hidden = Counter(c for i, h in enumerate(state.hands) if i != 1 for c in h) + Counter(state.stock)
    assert (
        Counter(c for i, h in enumerate(public.hands) if i != 1 for c in h) + Counter(public.stock) == hidden
    )


@pytest.mark.parametrize("preset", ["rummy500", "rummy500_household", "basic"])
def test_the_table_reading_only_names_cards_the_opponents_hold(preset: str) -> None:
    """Every card the log says an opponent took and kept is in their hand; Rummy 500's pile history
    (deep draws take every card above the chosen one) is rebuilt exactly."""
    complete = known = 0
    for seed in range(6):
        state = _round(preset, 3, seed)
        bots = {p: GreedyBot() for p in state.players}
        while state.phase != "over":
            reading = read_table(state)
            complete += reading.complete
            for p in state.players:
                held = Counter(state.hand_of(p))
                assert not reading.known[p] - held, (p, reading.known[p], held)
                known += sum(reading.known[p].values())
            state = _step(state, bots)
        if preset.startswith("rummy500"):
            assert complete > 0
    assert known > 0


def test_it_does_not_throw_the_card_that_completes_a_set_in_the_pile() -> None:
    # bob throws KS onto the up-card KH; ann holds KD among isolated cards: the greedy bot throws KD
    # (the highest penalty, first in canonical order), which hands bob the set K-K-K from the pile.
    ann = ["KD", "QC", "9H", "2S", "5S", "3D", "7C"]
    bob = ["KS", "8S", "JC", "2H", "4S", "9D", "TC"]
    s = stacked_round(R500, [ann, bob], dealer=0, up="KH", stock=["6H", "4H"])
    assert s.to_act == "bob"
    s = apply_move(s, "bob", {"type": "draw", "source": "stock"})
    s = apply_move(s, "bob", {"type": "discard", "card": "KS"})
    s = apply_move(s, "ann", {"type": "draw", "source": "stock"})
    assert s.discard == ("KH", "KS") and "KD" in s.hand_of("ann")
    assert GreedyBot().choose(s, "ann") == {"type": "discard", "card": "KD"}
    move = StrongBot().choose(s, "ann")
    assert move["type"] == "discard" and move["card"] != "KD"


def test_it_outplays_the_greedy_bot_over_a_few_rummy500_deals() -> None:
    """Twenty deals played twice, seats swapped (the benchmark plays hundreds)."""
    margin = wins = losses = 0
    for seed in range(20):
        for strong in ("p0", "p1"):
            state = _round("rummy500", 2, seed)
            bots: dict[str, Any] = {p: StrongBot(seed) if p == strong else GreedyBot() for p in state.players}
            while state.phase != "over":
                state = _step(state, bots)
            assert state.result is not None
            other = "p1" if strong == "p0" else "p0"
            mine, theirs = state.result.scores[strong], state.result.scores[other]
            margin += mine - theirs
            wins += mine > theirs
            losses += mine < theirs
    assert wins > losses and margin > 0, (wins, losses, margin)

"""Bots: auto_move (docs/rules.md "Ring tables, clocks and timeouts") on stacked decks, legality of every bot
move, greedy vs random."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tournaments.engine import Ruleset, apply_move, legal_moves, new_round
from tournaments.engine.bots import GreedyBot, RandomBot, auto_move, greedy_move, play_round
from tournaments.engine.state import RoundState

from .stacking import stacked_round

R500 = Ruleset.preset("rummy500")
HOUSEHOLD = Ruleset.preset("rummy500_household")
STOCK = {"type": "draw", "source": "stock"}
BOB = ["3D", "8S", "JC", "2H", "4S", "9D", "QC"]


def disc(card: str) -> dict[str, Any]:
    return {"type": "discard", "card": card}


def play(state: RoundState, *moves: tuple[str, dict[str, Any]]) -> RoundState:
    for player, move in moves:
        state = apply_move(state, player, move)
    return state


class Checked:
    """Wraps a bot: every move it returns must be one `legal_moves` lists, canonical form included."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.moves = 0

    def choose(self, state: RoundState, player: str) -> dict[str, Any]:
        move = self.bot.choose(state, player)
        assert move in legal_moves(state, player), (move, state.phase, state.hand_of(player))
        self.moves += 1
        return dict(move)


class Auto:
    def choose(self, state: RoundState, player: str) -> dict[str, Any]:
        return auto_move(state, player)


# ---------------------------------------------------------------------- auto_move


def test_auto_move_draws_from_the_stock_then_discards_the_highest_penalty() -> None:
    ann = ["5H", "6H", "2C", "9S", "KD", "4C", "AD"]
    s = stacked_round(R500, [ann, BOB], dealer=1, up="7H", stock=["TS", "JD", "8D"])
    assert s.to_act == "ann"
    assert auto_move(s, "ann") == STOCK  # the top discard would make a run, but a timeout draws the stock
    s = apply_move(s, "ann", STOCK)
    assert auto_move(s, "ann") == disc("AD")  # the ace counts 15 in hand
    s = apply_move(s, "ann", disc("AD"))
    assert s.to_act == "bob"


def test_auto_move_breaks_penalty_ties_in_canonical_order() -> None:
    # TS, KD and JH all count 10: canonical order is by suit S H D C, so the ten of spades goes.
    ann = ["KD", "JH", "TS", "2C", "3C", "6D", "5S"]
    s = stacked_round(R500, [ann, BOB], dealer=1, up="7H", stock=["8H"])
    s = apply_move(s, "ann", STOCK)
    assert auto_move(s, "ann") == disc("TS")
    # an ace and a joker both count 15: the natural card comes first in canonical order (jokers last)
    ann = ["AC", "JK", "2D", "3H", "6D", "5S", "7C"]
    s = stacked_round(R500, [ann, BOB], dealer=1, up="9H", stock=["8H"])
    s = apply_move(s, "ann", STOCK)
    assert auto_move(s, "ann") == disc("AC")


def test_auto_move_meets_a_deep_draw_obligation_first() -> None:
    ann = ["5H", "6H", "2C", "9S", "KD", "4C", "7D"]
    s = stacked_round(R500, [ann, BOB], dealer=1, up="7H", stock=["TS", "JD", "8D"])
    s = play(s, ("ann", STOCK), ("ann", disc("2C")), ("bob", STOCK), ("bob", disc("3D")))
    s = apply_move(s, "ann", {"type": "draw", "source": "discard", "card": "7H", "index": 0})
    assert s.must_use == "7H"
    move = auto_move(s, "ann")
    assert move == {"type": "meld", "cards": ["5H", "6H", "7H"]}
    s = apply_move(s, "ann", move)
    assert s.must_use is None
    # KD and TS tie at 10; TS first in canonical order
    assert auto_move(s, "ann") == disc("TS")


def test_auto_move_never_discards_the_card_taken_from_the_pile() -> None:
    ann = ["5H", "6H", "2C", "9S", "3C", "4C", "7D"]
    s = stacked_round(R500, [ann, BOB], dealer=1, up="KH", stock=["TS"])
    s = apply_move(s, "ann", {"type": "draw", "source": "discard", "card": "KH", "index": 0})
    assert s.must_use is None and s.reserved == ("KH",)
    assert auto_move(s, "ann") == disc("9S")  # KH (10) may not go back this turn


def test_auto_move_ends_the_round_on_an_empty_stock() -> None:
    hands = [["5H", "6H", "2C", "9S", "KD", "4C", "7D", "8C", "3S", "QD", "JH", "TC", "2D"], []]
    s = stacked_round(HOUSEHOLD, hands, dealer=1, up="AS")
    # 001: with the stock gone the player may take a usable pile card or end the round.
    s = replace(s, stock=(), discard=(*s.discard, *s.stock))
    assert {"type": "end_round"} in legal_moves(s, "ann")
    assert auto_move(s, "ann") == {"type": "end_round"}
    assert apply_move(s, "ann", auto_move(s, "ann")).phase == "over"


def test_auto_move_passes_in_a_claim_window_and_greedy_calls() -> None:
    ann = ["5H", "6H", "7H", "8H", "2C", "9S", "KD", "4C", "3D", "QS", "JD", "TC", "6S"]
    bob = ["2S", "3S", "4H", "9D", "QC", "KC", "5D", "7C", "8D", "TD", "JC", "AD", "AC"]
    s = stacked_round(HOUSEHOLD, [ann, bob], dealer=1, up="2D", stock=["KS"])
    s = play(s, ("ann", STOCK), ("ann", {"type": "meld", "cards": ["5H", "6H", "7H"]}), ("ann", disc("8H")))
    assert s.phase == "claims" and s.may_act == ("bob",)
    assert auto_move(s, "bob") == {"type": "pass_claim"}
    assert greedy_move(s, "bob")["type"] == "call_rummy"
    with pytest.raises(ValueError):
        auto_move(s, "ann")


def test_auto_move_plays_whole_rounds() -> None:
    for seed in range(3):
        for rules, n in ((R500, 4), (HOUSEHOLD, 3)):
            players = ["a", "b", "c", "d"][:n]
            bots = {p: Checked(Auto()) for p in players}
            end = play_round(new_round(rules, players, seed=seed), bots)
            assert end.result is not None


# ---------------------------------------------------------------------- every bot move is legal


VARIANTS = {
    "rummy500": R500,
    "household": HOUSEHOLD,
    "corner+swap_meld": Ruleset.preset("rummy500", round_the_corner=True, swapped_joker_must_be_melded=True),
    "ace_low+no_final_discard+top_used": Ruleset.preset(
        "rummy500", ace_high=False, final_discard_required=False, top_discard_must_be_used=True
    ),
    "household+pile_calls+fives": Ruleset.preset(
        "rummy500_household", rummy_in_the_pile=True, low_cards_five=True
    ),
}


@pytest.mark.parametrize("rules", list(VARIANTS.values()), ids=list(VARIANTS))
@pytest.mark.parametrize("n", [2, 3, 4])
def test_bots_only_make_legal_canonical_moves(rules: Ruleset, n: int) -> None:
    players = ["a", "b", "c", "d"][:n]
    for seed in range(3):
        kinds = [GreedyBot(), RandomBot(seed), GreedyBot(pile_depth=3), RandomBot(seed + 99)]
        bots = {p: Checked(kinds[i]) for i, p in enumerate(players)}
        end = play_round(new_round(rules, players, dealer=seed % n, seed=seed), bots)
        assert end.phase == "over" and end.result is not None
        assert sum(b.moves for b in bots.values()) == end.version


def test_random_bot_is_reproducible() -> None:
    def run(seed: int) -> RoundState:
        return play_round(
            new_round(R500, ["a", "b"], seed=3), {"a": RandomBot(seed), "b": RandomBot(seed + 1)}
        )

    assert run(5).log == run(5).log
    assert run(5).log != run(6).log


def test_play_round_stops_a_round_that_does_not_end() -> None:
    with pytest.raises(RuntimeError):
        play_round(new_round(R500, ["a", "b"], seed=1), {"a": Auto(), "b": Auto()}, max_moves=3)


def test_bots_refuse_to_move_out_of_turn() -> None:
    s = new_round(R500, ["a", "b"], dealer=0, seed=1)
    with pytest.raises(ValueError):
        GreedyBot().choose(s, "a")
    with pytest.raises(ValueError):
        RandomBot(1).choose(s, "a")


# ---------------------------------------------------------------------- strength

# The 1,000-round figure (goal: at least 80 %) is measured by `make bench-engine`
# (tests/benchmarks/bench_engine.py). To keep the suite fast this plays the first 300 seeds only and holds
# them to the same 80 % bar (the greedy bot won 260 of them, 86.7 %, when written; the seeds are fixed, so the
# result only moves when the engine or the bot changes).
GREEDY_ROUNDS = 300
GREEDY_MIN_WINS = 240


def test_greedy_outscores_random() -> None:
    wins = 0
    for seed in range(GREEDY_ROUNDS):
        state = new_round(R500, ["greedy", "random"], dealer=seed % 2, seed=seed)
        end = play_round(state, {"greedy": GreedyBot(), "random": RandomBot(seed)})
        assert end.result is not None
        wins += end.result.scores["greedy"] > end.result.scores["random"]
    assert wins >= GREEDY_MIN_WINS, f"greedy won {wins} of {GREEDY_ROUNDS}"


# ------------------------------------------------------ the Basic family (docs/rules.md "Basic Rummy family")

BASIC_PRESETS = ("basic", "block", "wrotham", "romme")
BASIC_VARIANTS = {
    **{name: Ruleset.preset(name) for name in BASIC_PRESETS},
    "basic+multi+final+own_meld+turn": Ruleset.preset(
        "basic",
        multiple_melds_per_turn=True,
        final_discard_required=True,
        lay_off_requires_own_meld=True,
        restock="turn",
        ace_high=True,
    ),
    "romme+no_swap+penalty": Ruleset.preset(
        "romme", joker_swap=False, scoring="penalty", going_rummy="plus10"
    ),
}


@pytest.mark.parametrize("name", list(BASIC_VARIANTS))
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_bots_and_auto_move_play_every_basic_preset_legally(name: str, n: int) -> None:
    rules = BASIC_VARIANTS[name]
    players = ["a", "b", "c", "d", "e", "f"][:n]
    for seed in range(2):
        kinds = [GreedyBot(), RandomBot(seed), Auto(), GreedyBot(pile_depth=3), RandomBot(seed + 9), Auto()]
        bots = {p: Checked(kinds[(i + seed) % 6]) for i, p in enumerate(players)}
        # Wrotham: a late deal (all at once) on odd seeds
        number = 4 + seed if rules.name == "wrotham" else 1
        end = play_round(new_round(rules, players, dealer=seed % n, round_number=number, seed=seed), bots)
        assert end.phase == "over" and end.result is not None
        assert sum(b.moves for b in bots.values()) == end.version


def test_auto_move_facing_an_empty_stock_restocks_or_ends_a_block() -> None:
    for name, expected in (("basic", STOCK), ("block", {"type": "end_round"})):
        s = new_round(Ruleset.preset(name), ["a", "b"], dealer=1, seed=2)
        s = replace(s, stock=(), discard=(*s.stock, *s.discard))
        assert auto_move(s, "a") == expected
        after = apply_move(s, "a", auto_move(s, "a"))
        assert (after.phase == "play" and after.stock) if name == "basic" else after.phase == "over"


def test_greedy_opens_with_several_melds_where_a_rule_judges_them_as_a_whole() -> None:
    # Rommé: neither meld reaches 40 alone; together they do
    ann = ["5H", "6H", "7H", "QS", "QH", "QD", "2C", "9S", "8D", "3C", "TC", "4S", "AD"]
    bob = ["3D", "TH", "JS", "2D", "9C", "KS", "6D", "8S", "KC", "AS", "5C", "7S", "QC"]
    s = stacked_round(Ruleset.preset("romme"), [ann, bob], dealer=1, up="4D", stock=["TD"])
    s = apply_move(s, "ann", STOCK)
    assert greedy_move(s, "ann") == {"type": "meld", "melds": [["QS", "QH", "QD"], ["5H", "6H", "7H"]]}


# The greedy bot against the random bot, per preset, two players: the first 40 seeds (it won 38 to 40 of
# them in each preset when written); `make bench-engine` plays more.
BASIC_GREEDY_ROUNDS = 40
BASIC_GREEDY_MIN_WINS = 32


@pytest.mark.parametrize("name", BASIC_PRESETS)
def test_greedy_outscores_random_in_every_basic_preset(name: str) -> None:
    rules = Ruleset.preset(name)
    wins = 0
    for seed in range(BASIC_GREEDY_ROUNDS):
        number = 1 + seed % 6 if name == "wrotham" else 1
        state = new_round(rules, ["greedy", "random"], dealer=seed % 2, round_number=number, seed=seed)
        end = play_round(state, {"greedy": GreedyBot(), "random": RandomBot(seed)})
        assert end.result is not None
        wins += end.result.scores["greedy"] > end.result.scores["random"]
    assert wins >= BASIC_GREEDY_MIN_WINS, f"greedy won {wins} of {BASIC_GREEDY_ROUNDS}"

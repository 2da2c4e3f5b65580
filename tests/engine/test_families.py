"""The family seam (issue 10): rulesets name their family and carry its options, a family plugs in
without touching the shared engine, and the dealer's seat and a game's totals have one rule each."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

import pytest

from tournaments.engine import (
    IllegalMove,
    Ruleset,
    RulesetError,
    add_round,
    apply_move,
    draw_first_dealer,
    game_over,
    legal_moves,
    new_round,
    next_dealer,
    player_view,
    replay,
)
from tournaments.engine.cards import CardError
from tournaments.engine.deal import DealShape, deal_round_robin
from tournaments.engine.families import FAMILIES, family_of
from tournaments.engine.families.rummy500 import Rummy500Options
from tournaments.engine.family import Bots, Deal
from tournaments.engine.moves import Move, RefuseDealMove
from tournaments.engine.rules import (
    _REGISTRY,
    PRESETS,
    FamilyOptions,
    PresetSpec,
    implemented_presets,
    option_names,
    register_preset,
)
from tournaments.engine.state import PHASES, RoundState, make_result

API_MOVE_TYPES = {
    "draw", "meld", "lay_off", "swap_joker", "discard", "end_round",
    "call_rummy", "pass_claim", "refuse_deal", "keep_deal", "close",
}  # fmt: skip


# ---------------------------------------------------------------------- rulesets and families


def test_each_implemented_preset_names_a_family_that_plays_it():
    assert implemented_presets() == PRESETS  # every game of docs/rules.md
    families = {"rummy500": "rummy500", "rummy500_household": "rummy500", "board": "board"}
    for name in implemented_presets():
        rules = Ruleset.preset(name)
        family = family_of(rules)
        assert family.name == rules.family == families.get(name, "basic")
        assert set(family.phases) <= set(PHASES) and family.phases[-1] == "over"
        assert set(family.move_fields) <= API_MOVE_TYPES
        assert all("type" in allowed for allowed in family.move_fields.values())


def test_family_options_live_in_own_and_still_read_as_attributes():
    house = Ruleset.preset("rummy500_household", rummy_in_the_pile=True, rummy_call_seconds=9)
    assert house.own == Rummy500Options(
        top_discard_must_be_used=True,
        stock_exhaustion="pile_only",
        rummy_calls=True,
        rummy_in_the_pile=True,
        rummy_call_seconds=9,
    )
    # the apps read an option by name, with a default for games that lack it (`live.clocks.arming.claim_seconds`)
    assert house.rummy_call_seconds == 9 and getattr(house, "rummy_call_seconds", 10) == 9
    assert getattr(house, "no_such_option", 10) == 10
    with pytest.raises(AttributeError):
        _ = house.deep_draw  # read by nothing, so gone
    common = {f.name for f in fields(Ruleset)}
    assert not common & {f.name for f in fields(Rummy500Options)}
    assert {"family", "own", "deep_draw", "stock_exhaustion"} & common == {"family", "own"}
    # what a table stores is unchanged: the preset and the options it set, whichever side they are on
    assert house.to_dict() == {
        "preset": "rummy500_household",
        "options": {"rummy_call_seconds": 9, "rummy_in_the_pile": True},
    }
    assert Ruleset.from_dict(json.loads(json.dumps(house.to_dict()))) == house
    assert pickle.loads(pickle.dumps(house)) == house and copy.deepcopy(house) == house
    assert house.option_values()["rummy_call_seconds"] == 9 and house.option_values()["ace_high"] is True
    assert list(house.option_values()) == list(option_names("rummy500_household"))


def test_a_family_check_across_its_options_still_refuses():
    with pytest.raises(RulesetError) as e:
        Ruleset.preset("rummy500", rummy_in_the_pile=True)
    assert e.value.code == "ruleset.bad_value"


def test_a_preset_outside_rules_md_cannot_be_registered():
    with pytest.raises(ValueError):
        register_preset(PresetSpec(_with_name(Ruleset.preset("rummy500"), "rummy600"), {}))


# ---------------------------------------------------------------------- a toy tile family plugs in


def _parse_tile(value: object) -> str:
    """Board Rummy's tiles (docs/rules.md "Board Rummy"): colour R Y B K then number 1-13, or JK."""
    if isinstance(value, str) and (value == "JK" or (value[:1] in "RYBK" and value[1:] in _NUMBERS)):
        return value
    raise CardError(f"{value!r} is not a tile", "card.unknown")


_NUMBERS = {str(n) for n in range(1, 14)}


class _ToyTiles:
    """Just enough of a tile game to drive the seam: a ``deal`` phase, keep/refuse, then ``close``."""

    name = "toy_tiles"
    title = "Toy tiles"
    phases = ("deal", "draw", "over")
    move_fields: Mapping[str, frozenset[str]] = {
        "keep_deal": frozenset({"type"}),
        "refuse_deal": frozenset({"type"}),
        "close": frozenset({"type", "discard", "groups"}),
    }

    def parse_code(self, value: object) -> str:
        return _parse_tile(value)

    def full_deck(self, rules: Ruleset, n_players: int) -> tuple[str, ...]:
        return tuple(f"{c}{n}" for c in "RYBK" for n in range(1, 14)) * 2 + ("JK", "JK")

    def deal_shape(self, rules: Ruleset, n_players: int) -> DealShape:
        return DealShape(each=14)

    def deal(self, rules: Ruleset, n_players: int, dealer: int, order: Sequence[str]) -> Deal:
        hands = deal_round_robin(order, n_players, dealer, 14)
        return Deal(
            tuple(map(tuple, hands)), (), tuple(order[14 * n_players :]), "deal", (dealer + 1) % n_players
        )

    def legal_moves(self, state: RoundState, player: str) -> list[dict[str, Any]]:
        return [{"type": "keep_deal"}, {"type": "refuse_deal"}] if state.phase == "deal" else []

    def apply(self, state: RoundState, player: str, move: Move) -> tuple[RoundState, Move]:
        if isinstance(move, RefuseDealMove):
            return replace(state, phase="over", result=self.score(state, "refused", None)), move
        raise IllegalMove("turn.not_your_turn", "toy")

    def score(self, state: RoundState, reason: str, out_seat: int | None) -> Any:
        zero = dict.fromkeys(state.players, 0)
        return make_result(
            scores=zero, game_points=zero, bonuses=(), details={"reason": reason}, redeal=True,
            deck=state.deck, salt=state.salt,
        )  # fmt: skip

    def close_claims(self, state: RoundState) -> RoundState:
        return state

    def view(self, state: RoundState, player: str | None) -> dict[str, Any]:
        return {"private_board": player is not None}

    bots: Bots | None = None
    pile_draw_depth: int | None = 1
    placed_cards_score = False
    limits_placements = False

    def pile_draw_obligation(self, state: RoundState, index: int) -> bool:
        return False


def _with_name(rules: Ruleset, name: str, **changes: Any) -> Ruleset:
    return replace(rules, name=name, **changes)


@pytest.fixture
def toy_board() -> Iterator[Ruleset]:
    """The toy stands in for the real ``board`` preset for one test, which is then put back."""
    real = _REGISTRY["board"]
    base = _with_name(Ruleset.preset("rummy500"), "board", family="toy_tiles", own=FamilyOptions())
    register_preset(PresetSpec(base, {"rounds": ("int?", 1, 10)}))
    FAMILIES["toy_tiles"] = _ToyTiles()
    try:
        yield Ruleset.preset("board", rounds=3)
    finally:
        del FAMILIES["toy_tiles"]
        register_preset(real)
    assert Ruleset.preset("board").family == "board"  # nothing of the toy is left behind


def test_a_new_family_plugs_into_the_seam_without_touching_the_engine(toy_board: Ruleset) -> None:
    assert "board" in PRESETS and toy_board.to_dict() == {"preset": "board", "options": {"rounds": 3}}
    s = new_round(toy_board, ["ann", "bob"], dealer=1, seed=4)
    assert s.phase == "deal" and len(s.hand_of("ann")) == 14 and all(_parse_tile(t) == t for t in s.deck)
    assert legal_moves(s, "ann") == [{"type": "keep_deal"}, {"type": "refuse_deal"}]
    with pytest.raises(IllegalMove) as e:
        apply_move(s, "ann", {"type": "draw", "source": "stock"})  # not a move of this family
    assert e.value.code == "move.unknown_type"
    view = player_view(s, "ann")
    assert view["phase"] == "deal" and view["private_board"] is True and "obligations" not in view
    over = apply_move(s, "ann", {"type": "refuse_deal"})
    assert over.result is not None and over.result.redeal and over.version == 1
    assert replay(toy_board, ["ann", "bob"], 1, s.deck, over.moves, salt=s.salt) == over
    with pytest.raises(ValueError, match="Stacked deck"):
        new_round(toy_board, ["ann", "bob"], deck=["7H", *s.deck[1:]])  # a card code is no tile here


# ------------------------------------------------------------------- the dealer's seat (docs/rules.md "Game")


def test_the_deal_passes_to_the_next_occupied_seat_clockwise():
    assert next_dealer(2, [1, 2, 5]) == 5
    assert next_dealer(5, [1, 2, 5]) == 1  # around the table
    assert next_dealer(3, [5, 1, 2]) == 5  # the dealer left: the seat after theirs deals
    assert next_dealer(7, [1, 2, 5]) == 1
    assert next_dealer(2, [1, 2, 5], redeal=True) == 2  # a refused deal: the same dealer again
    assert next_dealer(3, [1, 2, 5], redeal=True) == 5  # unless they left
    with pytest.raises(ValueError):
        next_dealer(1, [])


def test_the_first_dealer_is_drawn_with_the_csprng(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {draw_first_dealer([3, 5, 9]) for _ in range(300)}
    assert seen == {3, 5, 9}
    assert {next_dealer(None, [4, 6]) for _ in range(200)} == {4, 6}
    calls: list[int] = []

    def randbelow(n: int) -> int:
        calls.append(n)
        return n - 1

    monkeypatch.setattr("tournaments.engine.deal.secrets.randbelow", randbelow)
    assert draw_first_dealer([3, 5, 9]) == 9 and next_dealer(None, [6, 4]) == 6 and calls == [3, 2]
    with pytest.raises(ValueError):
        draw_first_dealer([])


# ---------------------------------------------------------------------- a game's totals


def test_game_totals_add_game_points_and_the_game_ends_at_the_target_or_the_rounds():
    rules = Ruleset.preset("rummy500", target_score=100)
    s = new_round(rules, ["ann", "bob"], seed=1)
    res = make_result(
        scores={"ann": 60, "bob": -20}, game_points={"ann": 60, "bob": -20}, bonuses=(), details={},
        redeal=False, deck=s.deck, salt=s.salt,
    )  # fmt: skip
    totals = add_round({"ann": 50, "bob": 10, "cid": 5}, res)
    assert totals == {"ann": 110, "bob": -10, "cid": 5}
    assert add_round({}, res) == {"ann": 60, "bob": -20}
    assert game_over(rules, totals, rounds_played=1)
    assert not game_over(rules, {"ann": 99, "bob": 0}, rounds_played=50)
    by_rounds = Ruleset.preset("rummy500", target_score=None, rounds=3)
    assert not game_over(by_rounds, {"ann": 10_000}, rounds_played=2)
    assert game_over(by_rounds, {"ann": 0}, rounds_played=3)

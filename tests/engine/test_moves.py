"""A move is one typed value (``moves.parse_move``): its JSON round-trips, the engine takes it as it takes the
JSON, and a refusal of its shape names the field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tournaments.engine import IllegalMove, Ruleset, apply_move, legal_moves, new_round, parse_move
from tournaments.engine.bots import GreedyBot
from tournaments.engine.families import FAMILIES
from tournaments.engine.moves import (
    KINDS,
    CloseMove,
    DiscardMove,
    DrawMove,
    LayOffMove,
    MeldMove,
    Move,
    PassClaimMove,
)
from tournaments.engine.state import RoundState

PRESETS = ("rummy500", "rummy500_household", "basic", "romme", "wrotham", "board")


def _states(preset: str, seed: int, steps: int = 60) -> list[RoundState]:
    """The states of the first ``steps`` moves of a greedy round."""
    s = new_round(Ruleset.preset(preset), ["ann", "bob", "cid"], dealer=seed % 3, seed=seed)
    bot, out = GreedyBot(), [s]
    for _ in range(steps):
        if s.phase == "over" or not s.may_act:
            break
        player = s.may_act[0]
        s = apply_move(s, player, bot.choose(s, player))
        out.append(s)
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_every_listed_move_parses_to_its_kind_and_back_to_the_same_json(preset: str) -> None:
    seen: set[str] = set()
    for seed in range(3):
        for s in _states(preset, seed):
            for player in s.may_act:
                for move in legal_moves(s, player):
                    typed = parse_move(move)
                    assert type(typed) is KINDS[move["type"]]
                    assert typed.to_json() == move
                    assert parse_move(typed) is typed
                    seen.add(move["type"])
    assert {"draw", "discard"} <= seen


@pytest.mark.parametrize("preset", PRESETS)
def test_the_engine_takes_a_typed_move_as_it_takes_its_json(preset: str) -> None:
    for s in _states(preset, 7, steps=30):
        for player in s.may_act:
            for move in legal_moves(s, player)[:6]:
                assert apply_move(s, player, parse_move(move)) == apply_move(s, player, move)


def test_moves_are_immutable_values() -> None:
    move = parse_move({"type": "meld", "cards": ["5H", "6H", "7H"]})
    assert move == MeldMove(cards=("5H", "6H", "7H")) and hash(move) == hash(
        MeldMove(cards=("5H", "6H", "7H"))
    )
    assert isinstance(move, MeldMove)
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.cards = ()  # type: ignore[misc]
    assert parse_move({"type": "meld", "melds": [["5H", "6H", "7H"], ["QS", "QH", "QD"]]}).to_json() == {
        "type": "meld",
        "melds": [["5H", "6H", "7H"], ["QS", "QH", "QD"]],
    }


def test_a_null_field_is_an_absent_one() -> None:
    assert parse_move({"type": "draw", "source": "discard", "card": None, "index": None}) == DrawMove(
        "discard"
    )
    assert parse_move({"type": "call_rummy", "card": "8H", "index": None, "meld": "m1"}).to_json() == {
        "type": "call_rummy",
        "card": "8H",
        "meld": "m1",
    }


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({"type": "fly"}, "move.unknown_type", "type"),
        ({"type": ["draw"]}, "move.unknown_type", "type"),
        ({"source": "stock"}, "move.unknown_type", "type"),
        ({"type": "draw", "source": "stock", "extra": 1}, "move.malformed", "extra"),
        ({"type": "discard", "card": "7H", "cards": ["7H"]}, "move.malformed", "cards"),
        ({"type": "draw", "source": 1}, "move.malformed", "source"),
        ({"type": "draw", "source": "discard", "index": "0"}, "move.malformed", "index"),
        ({"type": "draw", "source": "discard", "index": True}, "move.malformed", "index"),
        ({"type": "discard", "card": 7}, "card.malformed", "card"),
        ({"type": "close", "discard": ["R1"]}, "card.malformed", "discard"),
        ({"type": "meld", "cards": "5H 6H 7H"}, "move.malformed", "cards"),
        ({"type": "meld", "cards": ["5H", 6]}, "card.malformed", "cards"),
        ({"type": "meld", "melds": [["5H", "6H", "7H"], "QS"]}, "move.malformed", "melds"),
        ({"type": "close", "discard": "R1", "groups": "R1"}, "move.malformed", "groups"),
        ({"type": "lay_off", "meld": ["m1"], "cards": ["8H"]}, "move.malformed", "meld"),
        ({"type": "lay_off", "meld": True, "cards": ["8H"]}, "move.malformed", "meld"),
    ],
)
def test_a_malformed_move_is_refused_naming_its_field(data: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(IllegalMove) as e:
        parse_move(data)
    assert (e.value.code, e.value.details, e.value.http_status) == (code, {"field": field}, 400)


def test_what_a_value_names_is_the_rules_to_judge_in_their_order() -> None:
    """The shape is read first; a card code, a source or a meld id is judged when the rule comes to it."""
    assert parse_move({"type": "discard", "card": "1X"}) == DiscardMove("1X")
    assert parse_move({"type": "draw", "source": "pile"}) == DrawMove("pile")
    assert parse_move({"type": "lay_off", "meld": 3, "cards": []}) == LayOffMove(3, ())
    s = new_round(Ruleset.preset("rummy500"), ["ann", "bob"], dealer=1, seed=3)  # ann draws first
    cases: list[tuple[Move, str]] = [
        (DiscardMove("1X"), "turn.draw_first"),
        (DrawMove("pile"), "move.malformed"),
        (PassClaimMove(), "claims.no_window"),
        (CloseMove("R1"), "move.unknown_type"),  # not a move of this family
    ]
    for move, code in cases:
        with pytest.raises(IllegalMove) as e:
            apply_move(s, "ann", move)
        assert e.value.code == code, move


def test_each_family_plays_kinds_of_the_one_vocabulary() -> None:
    for family in FAMILIES.values():
        for mtype, fields in family.move_fields.items():
            assert fields == {"type", *KINDS[mtype].fields}, (family.name, mtype)

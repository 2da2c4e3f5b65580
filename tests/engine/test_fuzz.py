"""Malformed and near-legal input: ``apply_move`` raises ``IllegalMove`` and nothing else, never changes
the state, and accepts only moves that ``legal_moves`` lists (docs/rules.md "Error codes")."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.engine import (
    IllegalMove,
    Ruleset,
    apply_move,
    close_claims,
    legal_moves,
    new_round,
    state_to_dict,
)
from tournaments.engine.cards import NATURAL_CARDS
from tournaments.engine.engine import MOVE_TYPES
from tournaments.engine.state import Meld, RoundState

from .stacking import STOCK, disc, meld, pile, play, stacked_round
from .test_architecture import CODE_RE

DOCS = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])

R500 = Ruleset.preset("rummy500")
HOUSE = Ruleset.preset("rummy500_household")


@cache
def states() -> tuple[RoundState, ...]:
    """Rounds in every phase and with every kind of pending obligation."""
    out: list[RoundState] = []
    start = new_round(R500, ["ann", "bob", "cid"], dealer=2, seed=1)
    out += [start, apply_move(start, "ann", STOCK)]
    # melds with a joker; then a table with two identical pile cards and a deep draw pending (must_use)
    ann = ["5H", "6H", "7H", "JK", "QS", "QH", "9C"]
    bob = ["8H", "AS", "3D", "TC", "JS", "QD", "2S"]
    s = stacked_round(HOUSE, [ann, bob, ["KC", "4S", "6D", "TH", "QC", "3C", "9D"]], dealer=2, up="4H")
    s = play(s, ("ann", STOCK), ("ann", meld("5H", "JK", "7H")))
    out.append(s)
    table = replace(
        new_round(HOUSE, ["a", "b", "c", "d", "e"], seed=2),
        melds=(
            Meld("m1", "a", ("5H", "JK:6H", "7H"), ("a",) * 3),
            Meld("m2", "c", ("QS", "QH", "QD"), ("c",) * 3),
            Meld("m3", "d", ("JS", "JH", "JD"), ("d",) * 3),
        ),
        discard=("7H", "2C", "7H", "8H"),
    )
    out.append(table)
    drawn = apply_move(
        replace(table, hands=(table.hands[0], ("6H", "8H", "9H", "9H", "QC", "JK", "KD"), *table.hands[2:])),
        "b",
        pile("7H", 0),
    )
    out.append(drawn)
    claims = apply_move(replace(drawn, must_use=None, reserved=()), "b", disc("QC"))
    assert claims.phase == "claims"
    out.append(claims)
    out.append(close_claims(claims))
    out.append(replace(table, stock=()))  # household facing an empty stock
    over = new_round(R500, ["ann", "bob"], seed=5)
    over = replace(over, stock=(), phase="play")
    over = apply_move(over, over.players[over.turn], disc(over.hands[over.turn][0]))
    assert over.phase == "over"
    out.append(over)
    return tuple(out)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
CARDISH = st.sampled_from(
    [
        *NATURAL_CARDS,
        "JK",
        "jk",
        " 7h ",
        "10H",
        "JK:7H",
        "JK:JK",
        "JK:",
        "JK:ZZ",
        "ZZ",
        "",
        "7",
        "7HH",
        "ß",
        "\x00",
        "🂡",
    ]
)
VALUE = st.one_of(
    JSON,
    CARDISH,
    st.lists(CARDISH, max_size=16),
    st.lists(st.lists(CARDISH, max_size=5), max_size=4),
    st.integers(-(2**70), 2**70),
    st.sampled_from(
        ["stock", "discard", "m1", "m2", "m3", "m99", "", -1, 0, 1, 3, 10**30, True, 1.0, ["7H"] * 3000]
    ),
)
FIELDS = ("type", "source", "card", "cards", "melds", "meld", "index", "player", "extra")
# plausible values: right types, wrong contents
PLAUSIBLE = {
    "source": st.sampled_from(["stock", "discard"]),
    "card": CARDISH,
    "cards": st.lists(CARDISH, min_size=1, max_size=5),
    "melds": st.lists(st.lists(CARDISH, min_size=1, max_size=5), min_size=1, max_size=3),
    "meld": st.sampled_from(["m1", "m2", "m3", "m4"]),
    "index": st.integers(-2, 6),
}
MOVE = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from([*MOVE_TYPES, "close_claims", "DRAW"]), JSON)},
        optional={f: VALUE for f in FIELDS if f != "type"},
    ),
    st.fixed_dictionaries({"type": st.sampled_from(MOVE_TYPES)}, optional=PLAUSIBLE),
)


def check(state: RoundState, player: Any, move: Any) -> None:
    before = state_to_dict(state)
    listed = legal_moves(state, player)  # never raises, whoever asks
    assert isinstance(listed, list) and (listed == [] or player in state.may_act)
    try:
        after = apply_move(state, player, move)
    except IllegalMove as exc:
        assert CODE_RE.match(exc.code) and f"`{exc.code}`" in DOCS, exc.code
        assert exc.message and exc.http_status in (400, 422)
    else:
        logged = json.loads(after.log[-1][1])
        assert after.version == state.version + 1
        if "melds" in logged and logged not in legal_moves(state, player):
            # several melds in one move are not listed (docs/rules.md "A turn"); Rummy 500 judges them like
            # the singles in turn
            single = state
            for cards in logged["melds"]:
                assert {"type": "meld", "cards": cards} in legal_moves(single, player)
                single = apply_move(single, player, {"type": "meld", "cards": cards})
            assert (single.hands, single.melds, single.phase) == (after.hands, after.melds, after.phase)
        else:
            assert logged in legal_moves(state, player), (move, logged)
    assert state_to_dict(state) == before


@cache
def basic_states() -> tuple[RoundState, ...]:
    """Basic-family rounds: a start, after a draw, melds on the table, an exhausted stock (restock and
    block), a Wrotham late deal and a Rommé opening pending, and a finished round."""
    from tournaments.engine.bots import GreedyBot, play_round

    out: list[RoundState] = []
    for preset, options, n, number in (
        ("basic", {}, 2, 1),
        ("block", {"lay_off_requires_own_meld": True}, 4, 1),
        ("wrotham", {}, 3, 4),
        ("romme", {}, 5, 1),
        ("basic", {"multiple_melds_per_turn": True, "final_discard_required": True}, 6, 1),
    ):
        s = new_round(Ruleset.preset(preset, **options), [f"p{i}" for i in range(n)], 0, number, seed=n)
        out.append(s)
        if s.phase == "draw":
            out.append(apply_move(s, s.players[s.turn], STOCK))
        bot = GreedyBot()
        for _ in range(3 * n):  # a few turns in: melds on the table
            if s.phase == "over":
                break
            s = apply_move(s, s.players[s.turn], bot.choose(s, s.players[s.turn]))
            out.append(s)
        out.append(replace(s, stock=()))
        out.append(play_round(s, dict.fromkeys(s.players, bot)))
    return tuple(x for x in out if x.phase != "over" or x is out[-1])


@FUZZ
@given(data=st.data(), move=MOVE)
def test_junk_moves_raise_illegal_move_only_basic_family(data: st.DataObject, move: Any) -> None:
    state = data.draw(st.sampled_from(basic_states()))
    check(state, data.draw(who(state)), move)


@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_near_legal_moves_are_accepted_only_when_listed_basic_family(data: st.DataObject, seed: int) -> None:
    rng = random.Random(seed)
    state = data.draw(st.sampled_from(basic_states()))
    player = rng.choice(list(state.may_act) or list(state.players))
    moves = legal_moves(state, player) or [STOCK]
    for _ in range(5):
        check(state, rng.choice([player, *state.players]), _mutate(rng.choice(moves), rng))


def who(state: RoundState) -> st.SearchStrategy[Any]:
    return st.one_of(st.sampled_from([*state.players, *state.may_act, "nobody", ""]), JSON)


@FUZZ
@given(data=st.data(), move=MOVE)
def test_junk_moves_raise_illegal_move_only(data: st.DataObject, move: Any) -> None:
    state = data.draw(st.sampled_from(states()))
    check(state, data.draw(who(state)), move)


def _mutate(move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    m: dict[str, Any] = json.loads(json.dumps(move))
    how = rng.randrange(7)
    if how == 0 and "index" in m:
        m["index"] += rng.choice([-2, -1, 1, 2, 100])
    elif how == 1 and "cards" in m:
        cards = m["cards"]
        op = rng.randrange(5)
        if op == 4:
            cards[rng.randrange(len(cards))] = "JK:" + rng.choice([*NATURAL_CARDS, "JK"])
        elif op == 0:
            cards.append(rng.choice(cards))
        elif op == 1 and len(cards) > 1:
            cards.pop(rng.randrange(len(cards)))
        elif op == 2:
            cards[rng.randrange(len(cards))] = rng.choice([*NATURAL_CARDS, "JK"])
        else:
            rng.shuffle(cards)
            m["cards"] = [c.split(":")[0] if rng.random() < 0.5 else c for c in cards]
    elif how == 2 and "card" in m:
        m["card"] = rng.choice([*NATURAL_CARDS, "JK", "JK:" + m["card"]])
    elif how == 3 and "meld" in m:
        m["meld"] = rng.choice(["m1", "m2", "m3"])
    elif how == 4:
        m.pop(rng.choice(sorted(m)))
    elif how == 5:
        m["type"] = rng.choice(MOVE_TYPES)
    elif "cards" in m:
        m = {"type": "meld", "melds": [m["cards"], m["cards"]]}
    return m


@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_near_legal_moves_are_accepted_only_when_listed(data: st.DataObject, seed: int) -> None:
    rng = random.Random(seed)
    state = data.draw(st.sampled_from(states()))
    players = list(state.may_act) or list(state.players)
    player = rng.choice(players)
    moves = legal_moves(state, player) or legal_moves(state, state.players[state.turn]) or [STOCK]
    for _ in range(5):
        check(state, rng.choice([player, *state.players]), _mutate(rng.choice(moves), rng))


# ---------------------------------------------------------------------- Board Rummy


@cache
def board_states() -> tuple[RoundState, ...]:
    """Board rounds in every phase: the deal, the opening, a draw, after a pile draw, an empty stock."""
    from .board_stacking import board_round
    from .test_board import PAIRS, SIMPLE, _opened
    from .test_error_codes import _board_pile_on_empty_stock, _board_thrown

    opened = _opened()
    return (
        board_round([PAIRS, ["K1", "K1", "K2", "K2", "K3", "K3"]], trump="B4"),
        board_round([[*SIMPLE.split(), "Y13"], []]),
        opened,
        apply_move(opened, "bob", {"type": "draw", "source": "discard"}),
        _board_thrown(),
        _board_pile_on_empty_stock(),
        new_round(Ruleset.preset("board", extra_jokers=True), ["a", "b", "c", "d"], seed=3),
    )


TILEISH = st.sampled_from(
    ["R1", "r7", " K13 ", "Y13", "B5", "JK", "jk", "JK:R7", "JK:JK", "R0", "R14", "K", "7H", "", "ß", "R1 "]
)
BOARD_TYPES = ("draw", "discard", "close", "keep_deal", "refuse_deal")
BOARD_MOVE = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {"type": st.sampled_from([*BOARD_TYPES, "meld", "close_claims"])},
        optional={
            "source": st.sampled_from(["stock", "discard", "x"]) | JSON,
            "card": TILEISH | JSON,
            "discard": TILEISH | JSON,
            "index": st.integers(-2, 60) | JSON,
            "groups": st.lists(st.lists(TILEISH, max_size=15), max_size=5) | JSON,
            "extra": JSON,
        },
    ),
)


@FUZZ
@given(data=st.data(), move=BOARD_MOVE)
def test_board_junk_moves_raise_illegal_move_only(data: st.DataObject, move: Any) -> None:
    state = data.draw(st.sampled_from(board_states()))
    check(state, data.draw(who(state)), move)


@FUZZ
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_board_near_legal_moves_are_accepted_only_when_listed(data: st.DataObject, seed: int) -> None:
    rng = random.Random(seed)
    state = data.draw(st.sampled_from(board_states()))
    player = rng.choice(list(state.may_act))
    move = dict(rng.choice(legal_moves(state, player)))
    hand = list(state.hand_of(player))
    key = rng.choice(["card", "discard", "index", "type", "groups", "source"])
    if key == "groups":
        kept = list(hand)
        if "discard" in move:
            kept.remove(move["discard"])
        rng.shuffle(kept)
        move["groups"] = [kept[: rng.randint(0, len(kept))], kept[rng.randint(0, len(kept)) :]]
    elif key == "index":
        move["index"] = rng.randint(-1, 3)
    elif key == "type":
        move["type"] = rng.choice(BOARD_TYPES)
    elif key == "source":
        move["source"] = rng.choice(["stock", "discard"])
    else:
        move[key] = rng.choice([*hand, "JK", "R1"])
    check(state, rng.choice([player, *state.players]), move)

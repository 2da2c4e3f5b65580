"""Property tests: random playouts of every preset (Rummy 500's with 2-4 players, the Basic family's
with 2-6) and random options.

Hypothesis draws the ruleset, the seat count and the seeds; each example plays a whole round with a
seeded random player and checks the invariants at every step. The example count is a settings profile
(``ENGINE_EXAMPLES`` per Rummy 500 preset and seat count, default 30: about 20 s in all;
``BASIC_EXAMPLES`` per Basic preset and seat count, default 5: about 25 s; soak with more).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.engine import (
    IllegalMove,
    Ruleset,
    apply_move,
    close_claims,
    legal_moves,
    new_round,
    player_view,
    replay,
    state_from_dict,
    state_to_dict,
)
from tournaments.engine.cards import NATURAL_CARDS, NATURAL_TILES, hand_value, is_joker
from tournaments.engine.families.rummy500.draw import draw_obligation as _draw_obligation
from tournaments.engine.families.rummy500.draw import pile_draw_ok as _pile_draw_ok
from tournaments.engine.hands import add as _add
from tournaments.engine.melds import card_values, enumerate_lay_offs, enumerate_melds
from tournaments.engine.state import RoundState
from tournaments.engine.turn import Turn as _Turn
from tournaments.engine.turn import feasible as _feasible

settings.register_profile(
    "engine",
    max_examples=int(os.environ.get("ENGINE_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=False,
)
ENGINE = settings.get_profile("engine")
BASIC = settings(ENGINE, max_examples=int(os.environ.get("BASIC_EXAMPLES", "5")))
BASIC_PRESETS = ("basic", "block", "wrotham", "romme")

BOOL_OPTIONS = (
    "top_discard_must_be_used",
    "final_discard_required",
    "ace_high",
    "round_the_corner",
    "joker_swap",
    "low_cards_five",
    "rummy_calls",
)


@st.composite
def options(draw: Any, name: str) -> Ruleset:
    opts = {k: draw(st.booleans()) for k in BOOL_OPTIONS if draw(st.booleans())}
    if opts.get("joker_swap", True) and draw(st.booleans()):
        opts["swapped_joker_must_be_melded"] = True
    calls = opts.get("rummy_calls", name == "rummy500_household")
    if calls and draw(st.booleans()):
        opts["rummy_in_the_pile"] = True
    return Ruleset.preset(name, **opts)


@st.composite
def basic_options(draw: Any, name: str) -> Ruleset:
    """Any option of the Basic family's presets (docs/rules.md "Basic Rummy family"), a short stall limit now
    and then."""
    opts: dict[str, Any] = {}
    switches = ["ace_high", "round_the_corner", "final_discard_required", "lay_off_requires_own_meld"]
    switches += ["multiple_melds_per_turn"] if name in ("basic", "block") else ["joker_swap"]
    for key in switches:
        if draw(st.booleans()):
            opts[key] = draw(st.booleans())
    for key, values in (
        ("going_rummy", ("double", "plus10", "off")),
        ("restock", ("shuffle", "turn", "none")),
        ("scoring", ("winner", "penalty")),
    ):
        if draw(st.booleans()):
            opts[key] = draw(st.sampled_from(values))
    if draw(st.booleans()):
        opts["restock_limit"] = draw(st.integers(0, 3))
    if name == "romme" and draw(st.booleans()):
        opts["opening_minimum"] = draw(st.sampled_from([0, 20, 40, 60]))
    if draw(st.booleans()):
        opts["stall_turns"] = draw(st.integers(1, 12))
    return Ruleset.preset(name, **opts)


def conserved(s: RoundState) -> bool:
    cards = [c for h in s.hands for c in h] + list(s.stock) + list(s.discard)
    cards += ["JK" if is_joker(c) else c for m in s.melds for c in m.cards]
    return Counter(cards) == Counter(s.deck)


def check_view(s: RoundState, who: str | None) -> None:
    v = player_view(s, who)
    json.dumps(v)
    visible = set(s.discard) | {c for m in s.melds for c in m.cards}
    if who is not None:
        visible |= set(s.hand_of(who))
    if s.result is not None:
        return  # everything is public once over
    if s.rules.deck_count(len(s.players)) == 1:  # every natural code is unique: any other in the view leaks
        found: set[str] = set()

        def walk(x: Any) -> None:
            if isinstance(x, str) and x in NATURAL_CARDS:
                found.add(x)
            elif isinstance(x, dict):
                for y in x.values():
                    walk(y)
            elif isinstance(x, list):
                for y in x:
                    walk(y)

        walk(v)
        assert found <= {c.removeprefix("JK:") for c in visible}, found - visible
    if who is not None:
        assert v["hand"] == list(s.hand_of(who))
    else:
        assert "hand" not in v
    assert "salt" not in json.dumps(v) or s.salt not in json.dumps(v)


def random_junk(rng: random.Random) -> dict[str, Any]:
    cards = [*NATURAL_CARDS, "JK", "ZZ", 7, None, "JK:7H"]
    kind = rng.choice(
        [
            "draw",
            "meld",
            "lay_off",
            "swap_joker",
            "discard",
            "end_round",
            "call_rummy",
            "pass_claim",
            "x",
            None,
        ]
    )
    move: dict[str, Any] = {"type": kind}
    if rng.random() < 0.8:
        move["card"] = rng.choice(cards)
    if rng.random() < 0.5:
        move["cards"] = [rng.choice(cards) for _ in range(rng.randint(0, 5))]
    if rng.random() < 0.5:
        move["meld"] = rng.choice(["m1", "m2", "m9", 3])
    if rng.random() < 0.5:
        move["source"] = rng.choice(["stock", "discard", "nope"])
    if rng.random() < 0.3:
        move["index"] = rng.choice([0, 1, -1, 99, True, "0"])
    return move


def check_result(s: RoundState) -> None:
    r = s.result
    assert r is not None
    if s.rules.family == "basic":
        check_basic_result(s)
        return
    placed = dict.fromkeys(s.players, 0)
    for m in s.melds:
        for p, v in zip(m.placers, card_values(m.cards, s.rules), strict=True):
            placed[p] += v
    for seat, p in enumerate(s.players):
        assert r.scores[p] == placed[p] - sum(hand_value(c, s.rules) for c in s.hands[seat])
    assert r.game_points == r.scores


def check_basic_result(s: RoundState) -> None:
    """docs/rules.md "Basic Rummy family": 0 for the player out and minus the own hand (doubled for rummy) for
    the others; nobody out: minus the own hand for everyone."""
    r = s.result
    assert r is not None
    hv = {p: sum(hand_value(c, s.rules) for c in s.hands[i]) for i, p in enumerate(s.players)}
    out = r.details["went_out"]
    if out is None:
        assert r.details["reason"] in ("end_round", "stall")
        assert dict(r.scores) == {p: -v for p, v in hv.items()}
        return
    assert r.details["reason"] == "out" and s.hand_of(out) == () and hv[out] == 0
    factor = 2 if r.details["going_rummy"] and s.rules.going_rummy == "double" else 1
    assert dict(r.scores) == {p: -factor * v for p, v in hv.items()}


def check_pile_draws(s: RoundState) -> None:
    """The cheap pre-filter of a pile draw never refuses a draw the full search would accept."""
    hand = s.hands[s.turn]
    for i, chosen in enumerate(s.discard):
        after = _add(hand, s.discard[i:])
        must = chosen if _draw_obligation(s, i) else None
        exact = _feasible(_Turn(after, s.melds, must, (chosen,), 0), s.rules)
        assert _pile_draw_ok(s, i) == exact, (chosen, i)


def check_complete(s: RoundState, player: str, moves: list[dict[str, Any]]) -> None:
    """With an obligation pending, a placement is listed exactly when apply_move accepts it."""
    hand = s.hand_of(player)
    candidates: list[dict[str, Any]] = [
        {"type": "meld", "cards": list(m)}
        for m in enumerate_melds(hand, s.rules, min_natural=s.rules.min_natural)
    ]
    for m in s.melds:
        candidates += [
            {"type": "lay_off", "meld": m.id, "cards": list(a)}
            for a, _ in enumerate_lay_offs(hand, m.cards, s.rules)
        ]
        candidates += [
            {"type": "swap_joker", "meld": m.id, "card": c[3:]} for c in m.cards if c.startswith("JK:")
        ]
    for cand in candidates:
        try:
            apply_move(s, player, cand)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == (cand in moves), cand


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("name", ["rummy500", "rummy500_household"])
@ENGINE
@given(data=st.data(), deal_seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_random_playouts(name: str, n: int, data: st.DataObject, deal_seed: int, play_seed: int) -> None:
    playout(data.draw(options(name)), n, deal_seed, play_seed)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", BASIC_PRESETS)
@BASIC
@given(data=st.data(), deal_seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_random_playouts_basic_family(
    name: str, n: int, data: st.DataObject, deal_seed: int, play_seed: int
) -> None:
    rules = data.draw(basic_options(name))
    # Wrotham's late deals (4-6 of each six) go out all at once: play them too
    round_number = data.draw(st.integers(1, 6)) if name == "wrotham" else 1
    playout(rules, n, deal_seed, play_seed, round_number)


def playout(rules: Ruleset, n: int, deal_seed: int, play_seed: int, round_number: int = 1) -> None:
    """One random round checked at every step: views, legal moves, junk, conservation, replay."""
    players = [f"p{i}" for i in range(n)]
    rng = random.Random(play_seed)
    dealer = rng.randrange(n)
    s = new_round(rules, players, dealer, round_number, seed=deal_seed)
    history = [s]
    for _step in range(3000):
        if s.phase == "over":
            break
        assert conserved(s)
        who = rng.choice([None, *players])
        check_view(s, who)
        if s.phase == "claims" and rng.random() < 0.3:
            s = close_claims(s)
            history.append(s)
            continue
        player = rng.choice(s.may_act)
        moves = legal_moves(s, player)
        assert moves, f"{player} may act but has no legal move in phase {s.phase}"
        assert len({json.dumps(m, sort_keys=True) for m in moves}) == len(moves)
        for other in players:
            if other not in s.may_act:
                assert legal_moves(s, other) == []
        snapshot = state_to_dict(s)
        if s.phase == "play" and (s.must_use is not None or s.jokers_to_meld) and rng.random() < 0.5:
            check_complete(s, player, moves)
        if s.phase == "draw" and rng.random() < 0.2 and rules.family == "rummy500":
            check_pile_draws(s)
        # the legal moves are all accepted, and in canonical form (the log records exactly the move):
        # every one at some steps, a sample at the others
        for m in moves if rng.random() < 0.15 else rng.sample(moves, min(len(moves), 4)):
            assert json.loads(apply_move(s, player, m).log[-1][1]) == m
        # junk: refused with IllegalMove and no change, or accepted as a listed legal move
        for _ in range(3):
            junk = random_junk(rng)
            actor = rng.choice([*players, "nobody"])
            try:
                after = apply_move(s, actor, junk)
            except IllegalMove:
                continue
            logged = json.loads(after.log[-1][1])
            assert logged in legal_moves(s, actor), (junk, logged)
        assert state_to_dict(s) == snapshot
        s = apply_move(s, player, rng.choice(moves))
        assert s.version == history[-1].version + 1
        history.append(s)
    assert s.phase == "over", "the round did not end"
    assert conserved(s)
    check_result(s)
    # exact storage round trip and replay of the final and of a random intermediate state
    assert state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s
    again = replay(rules, players, dealer, s.deck, s.moves, salt=s.salt, round_number=round_number)
    assert again == s
    mid = rng.choice(history)
    assert replay(rules, players, dealer, s.deck, mid.moves, salt=s.salt, round_number=round_number) == mid


# ================================================================== Board Rummy (docs/rules.md "Board Rummy")

# Board rounds are longer (every listing reads each possible close), so fewer examples per seat count.
BOARD_PROFILE = settings(
    max_examples=int(os.environ.get("BOARD_EXAMPLES", "4")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TILE_JUNK = [*NATURAL_TILES, "JK", "JK:R7", "7H", "R14", 7, None]


def board_junk(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(["draw", "discard", "close", "keep_deal", "refuse_deal", "meld", None])
    move: dict[str, Any] = {"type": kind}
    if rng.random() < 0.6:
        move[rng.choice(["card", "discard"])] = rng.choice(TILE_JUNK)
    if rng.random() < 0.3:
        move["groups"] = [[rng.choice(TILE_JUNK) for _ in range(rng.randint(0, 5))]]
    if rng.random() < 0.4:
        move["source"] = rng.choice(["stock", "discard", "nope"])
    if rng.random() < 0.2:
        move["index"] = rng.choice([0, -1, 99, True])
    return move


def check_board_view(s: RoundState, who: str | None) -> None:
    v = player_view(s, who)
    text = json.dumps(v)
    if s.result is not None:
        return
    visible = set(s.discard) | {s.own["trump"]} | (set(s.hand_of(who)) if who is not None else set())
    shown = {t for t in NATURAL_TILES if f'"{t}"' in text}
    assert shown <= visible, shown - visible
    assert s.salt not in text and ("hand" in v) == (who is not None)


@pytest.mark.parametrize("n", [2, 3, 4])
@BOARD_PROFILE
@given(data=st.data(), deal_seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_random_board_playouts(n: int, data: st.DataObject, deal_seed: int, play_seed: int) -> None:
    rules = Ruleset.preset("board", extra_jokers=data.draw(st.booleans()))
    players = [f"p{i}" for i in range(n)]
    rng = random.Random(play_seed)
    dealer = rng.randrange(n)
    s = new_round(rules, players, dealer, seed=deal_seed)
    history = [s]
    for _step in range(3000):
        if s.phase == "over":
            break
        assert Counter([*(t for h in s.hands for t in h), *s.stock, *s.discard, s.own["trump"]]) == Counter(
            s.deck
        )
        check_board_view(s, rng.choice([None, *players]))
        player = rng.choice(s.may_act)
        moves = legal_moves(s, player)
        assert moves, f"{player} may act but has no legal move in phase {s.phase}"
        assert len({json.dumps(m, sort_keys=True) for m in moves}) == len(moves)
        for other in players:
            if other not in s.may_act:
                assert legal_moves(s, other) == []
        snapshot = state_to_dict(s)
        for m in moves if rng.random() < 0.1 else rng.sample(moves, min(len(moves), 3)):
            assert json.loads(apply_move(s, player, m).log[-1][1]) == m
        for _ in range(3):
            junk, actor = board_junk(rng), rng.choice([*players, "nobody"])
            try:
                after = apply_move(s, actor, junk)
            except IllegalMove:
                continue
            assert json.loads(after.log[-1][1]) in legal_moves(s, actor), junk
        assert state_to_dict(s) == snapshot
        # closes are rare at random: take one whenever it is offered, half the time
        closes = [m for m in moves if m["type"] == "close"]
        s = apply_move(s, player, closes[0] if closes and rng.random() < 0.5 else rng.choice(moves))
        assert s.version == history[-1].version + 1
        history.append(s)
    assert s.phase == "over" and s.result is not None
    r = s.result
    closer = r.details.get("closer")
    assert {p: v for p, v in r.scores.items() if v} == (
        {closer: r.details["hand"]["points"]} if closer else {}
    )
    twin = s.own["trump_seat"]
    expected = (
        [] if twin is None or r.redeal else [{"player": players[twin], "points": 100, "reason": "trump"}]
    )
    assert [dict(b) for b in r.bonuses] == expected
    assert r.redeal == (r.details["reason"] == "refused")
    assert state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s
    assert replay(rules, players, dealer, s.deck, s.moves, salt=s.salt) == s
    mid = rng.choice(history)
    assert replay(rules, players, dealer, s.deck, mid.moves, salt=s.salt) == mid

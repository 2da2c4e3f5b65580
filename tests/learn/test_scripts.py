"""The how-to-play illustrations (play/learn/): every preset's scripted round, dealt from its stacked deck, is
played through the real engine move by move; each move is one the engine lists as legal at that moment, and each
picture shows what its caption key says (a "set" frame is a set the engine placed, a "lay_off" is the learner's card
on Anna's meld and counts for the learner, the scores are the engine's result and add up as docs/rules.md says).
Pure engine and Python: no database, no Django."""

from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise

import pytest

from play.learn import LEARNER, SCRIPTS, Frame, MeldView, frames, frames_of, run
from play.learn.scripts import ANNA
from tournaments.engine import Ruleset, legal_moves
from tournaments.engine.cards import natural_of

PRESETS = sorted(SCRIPTS)
RANKS = "A23456789TJQK"


def _natural(card: str) -> str:
    return natural_of(card) if card.startswith("JK:") else card


def _is_set(cards: tuple[str, ...]) -> bool:
    naturals = [_natural(c) for c in cards]
    return (
        3 <= len(cards) <= 4
        and len({c[:-1] for c in naturals}) == 1
        and len({c[-1] for c in naturals}) == len(cards)
    )


def _is_run(cards: tuple[str, ...]) -> bool:
    naturals = [_natural(c) for c in cards]
    ranks = [RANKS.index(c[:-1]) for c in naturals]
    return (
        len(cards) >= 3
        and len({c[-1] for c in naturals}) == 1
        and all(b - a == 1 for a, b in pairwise(ranks))
    )


def _meld(frame: Frame, meld_id: str | None) -> MeldView:
    found = [m for m in frame.melds if m.id == meld_id]
    assert len(found) == 1, (frame.key, meld_id)
    return found[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_move_of_every_script_is_legal_when_it_is_made(preset: str) -> None:
    dealt, steps = run(SCRIPTS[preset])
    assert dealt.version == 0
    for before, after, step in steps:
        logged = json.loads(after.log[-1][1])
        listed = legal_moves(before, step.player)
        assert logged in listed, (preset, step.player, logged)
        assert after.version == before.version + 1
    assert steps[-1][1].phase == "over"


@pytest.mark.parametrize("preset", PRESETS)
def test_each_picture_shows_what_its_caption_says(preset: str) -> None:
    script = SCRIPTS[preset]
    rules = Ruleset.preset(preset)
    shown = frames(preset)
    assert [f.key for f in shown] == [f.key for f in frames_of(script)]  # the same every time
    assert shown[0].key == "deal" and shown[-1].key == "score"
    previous: Frame | None = None
    for frame in shown:
        move = frame.move or {}
        key = frame.key
        if key == "deal":
            assert Counter(frame.hand) == Counter(script.hands[0]) and not frame.melds
            assert frame.hand_counts[ANNA] == len(script.hands[1])
        elif key in ("draw", "draw_pile"):
            assert frame.actor == LEARNER and move["type"] == "draw" and len(frame.touched) == 1
            assert frame.touched[0] in frame.hand
            assert previous is not None
            if key == "draw":
                assert move["source"] == "stock" and frame.stock_count == previous.stock_count - 1
            else:  # household rules: the card taken from the pile must be used this turn
                assert move["source"] == "discard" and frame.touched[0] == previous.pile[-1]
                assert frame.view["obligations"]["must_use"] == frame.touched[0]
        elif key in ("set", "set_from_pile", "run", "run_joker", "out_meld"):
            meld = _meld(frame, frame.meld)
            assert frame.actor == LEARNER and move["type"] == "meld" and meld.owner == LEARNER
            assert frame.touched == meld.cards and set(meld.placers) == {LEARNER}
            jokers = [c for c in meld.cards if c.startswith("JK")]
            if key.startswith("set"):
                assert _is_set(meld.cards), meld.cards
            else:
                assert _is_run(meld.cards), meld.cards
            assert bool(jokers) == (key == "run_joker")
            if key == "set_from_pile":
                assert (
                    previous is not None and previous.key == "draw_pile" and previous.touched[0] in meld.cards
                )
        elif key in ("opening", "other_opening"):
            who = LEARNER if key == "opening" else ANNA
            new = [m for m in frame.melds if m.owner == who and set(m.cards) <= set(frame.touched)]
            assert frame.actor == who and len(new) >= 2 and len(move["melds"]) == len(new)
            assert all(_is_set(m.cards) or _is_run(m.cards) for m in new)
            assert frame.points is not None and frame.points >= rules.option_values()["opening_minimum"] == 40
        elif key == "other_meld":
            meld = _meld(frame, frame.meld)
            assert frame.actor == ANNA and meld.owner == ANNA and _is_run(meld.cards)
        elif key in ("lay_off", "out_lay_off"):
            meld = _meld(frame, frame.meld)
            assert frame.actor == LEARNER and move["type"] == "lay_off"
            assert meld.owner == ANNA and _is_run(meld.cards)  # "on Anna's run"
            for card, placer in zip(meld.cards, meld.placers, strict=True):
                assert (placer == LEARNER) == (card in frame.touched)  # it counts for the learner
        elif key in ("discard", "other_discard", "out"):
            who = ANNA if key == "other_discard" else LEARNER
            assert frame.actor == who and move["type"] == "discard"
            assert frame.pile[-1] == frame.touched[0] == move["card"]
        elif key == "close":
            assert frame.actor == LEARNER and move["type"] == "close"
            details = frame.view["result"]["details"]
            assert details["reason"] == "close" and details["closer"] == LEARNER
            assert sum(len(g) for g in details["arrangement"]["groups"]) == 14
        elif key == "score":
            assert frame.view["phase"] == "over"
        else:
            raise AssertionError(f"no check for the caption key {key!r}")
        if key in ("out", "out_meld", "out_lay_off", "close"):
            assert frame.hand == () or key == "close"
            assert frame.view["phase"] == "over"
            assert frame.view["result"]["details"]["reason"] in ("out", "close")
        elif key != "score":
            assert frame.view["phase"] != "over", key
        previous = frame


@pytest.mark.parametrize("preset", PRESETS)
def test_every_page_shows_a_hand_a_set_a_run_a_discard_going_out_and_the_scoring(preset: str) -> None:
    keys = {f.key for f in frames(preset)}
    if preset == "board":  # no public melds in Board Rummy: its closing board shows the group and the runs
        assert {"deal", "draw", "discard", "close", "score"} <= keys
        groups = frames(preset)[-1].view["result"]["details"]["arrangement"]["groups"]
        assert any(len({g[1:] for g in group}) == 1 for group in groups)  # a group (one number)
        assert any(any(t.startswith("JK") for t in group) for group in groups)  # a run with a joker
        return
    assert {"deal", "draw", "discard", "score"} <= keys
    assert keys & {"set", "set_from_pile", "opening"} and keys & {"run", "run_joker", "opening"}
    assert keys & {"lay_off", "out_lay_off"} and keys & {"out", "out_meld", "out_lay_off"}
    if Ruleset.preset(preset).jokers(2):
        assert "run_joker" in keys


def test_the_scores_are_the_engines_and_add_up_as_the_rules_say() -> None:
    for preset in PRESETS:
        result = frames(preset)[-1].view["result"]
        details = result["details"]
        if preset.startswith("rummy500"):  # placed minus in hand
            for player, row in details["players"].items():
                assert result["scores"][player] == row["placed_value"] - row["hand_value"]
        elif preset == "board":  # the closer's hand, and the trump's twin: 100 from the opponent
            assert result["scores"] == {LEARNER: details["hand"]["points"], ANNA: 0}
            assert result["bonuses"] == [{"player": LEARNER, "points": 100, "reason": "trump"}]
            assert result["game_points"][LEARNER] == details["hand"]["points"] + 100
        else:  # the winner collects the other hand (no going rummy: the learner placed before going out)
            assert details["went_out"] == LEARNER and not details["going_rummy"]
            assert result["game_points"] == {LEARNER: details["players"][ANNA]["hand_value"], ANNA: 0}


def test_the_household_joker_and_kings_count_for_the_learner_on_the_table() -> None:
    """The household score caption says the joker and the kings count on the table for the learner: they do."""
    placed = frames("rummy500_household")[-1].view["result"]["details"]["players"][LEARNER]["placed"]
    assert "JK:6H" in placed and {"KS", "KH", "KC"} <= set(placed)

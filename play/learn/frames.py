"""How-to-play illustrations: a scripted round on a stacked deck, played through the real engine, cut into frames.

Each frame is the learner's view ("you") after one step, with a caption key the page words (play/learn/words.py)
and the cards the step touched. Nothing here is drawn by hand: the hand, the melds, the pile and the scores are
the engine's answers, so an illustration can never contradict the rules (tests/learn checks each caption's claim
against them). Pure Python, no Django: the pages and the tests read the same frames."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.engine import Ruleset, apply_move, new_round, player_view, stacked_deck
from tournaments.engine.melds import meld_value
from tournaments.engine.state import RoundState

LEARNER = "you"


@dataclass(frozen=True)
class Step:
    """One move of the script; ``frame`` is the caption key of the picture taken after it (None: no picture)."""

    player: str
    move: Mapping[str, Any]
    frame: str | None = None


@dataclass(frozen=True)
class Script:
    """A round on a stacked deck: who sits where, the hands dealt, the moves, and which steps are pictured."""

    preset: str
    hands: tuple[tuple[str, ...], ...]
    steps: tuple[Step, ...]
    up: str | None = None
    stock: tuple[str, ...] = ()
    players: tuple[str, ...] = (LEARNER, "anna")
    dealer: int = 1  # Anna deals, so the learner (on her left) starts
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MeldView:
    id: str
    owner: str
    cards: tuple[str, ...]
    placers: tuple[str, ...]


@dataclass(frozen=True)
class Frame:
    """The learner's view after a step (or the deal, or the round's end)."""

    key: str  # the caption key
    actor: str | None  # who made the step (None: the deal, the scoring)
    move: Mapping[str, Any] | None  # the move as the engine logged it (canonical)
    hand: tuple[str, ...]  # the learner's hand (Board Rummy: their board)
    melds: tuple[MeldView, ...]
    pile: tuple[str, ...]  # the discard pile, bottom first
    stock_count: int
    hand_counts: Mapping[str, int]
    touched: tuple[str, ...]  # the cards the step drew, placed or discarded
    meld: str | None  # the meld the step made or built on
    points: int | None  # a meld move: the new melds' value on the table (Rommé's opening counts so)
    view: Mapping[str, Any]  # the engine's whole player view (its family's fields, the result once over)


def _counts(cards: Sequence[str]) -> Counter[str]:
    return Counter(cards)


def _frame(key: str, before: RoundState | None, after: RoundState, actor: str | None) -> Frame:
    view = player_view(after, LEARNER)
    melds = tuple(
        MeldView(m["id"], m["owner"], tuple(m["cards"]), tuple(m["placers"])) for m in view["melds"]
    )
    move: dict[str, Any] | None = None
    touched: tuple[str, ...] = ()
    meld: str | None = None
    points: int | None = None
    if before is not None and actor is not None:
        move = json.loads(after.log[-1][1])
        old = {m.id: m.cards for m in before.melds}
        new = {m.id: m.cards for m in after.melds}
        changed = [mid for mid in new if mid not in old or new[mid] != old[mid]]
        if changed:
            meld = changed[0] if len(changed) == 1 else None
            added: Counter[str] = Counter()
            for mid in changed:
                added += _counts(new[mid]) - _counts(old.get(mid, ()))
            placed = []
            for mid in changed:  # the added cards in the order they lie in their melds
                for card in new[mid]:
                    if added[card] > 0:
                        placed.append(card)
                        added[card] -= 1
            touched = tuple(placed)
            if move["type"] == "meld":
                points = sum(meld_value(new[mid], after.rules) for mid in changed if mid not in old)
        elif move["type"] == "draw":
            touched = tuple((_counts(after.hand_of(actor)) - _counts(before.hand_of(actor))).elements())
        elif move["type"] in ("discard", "close"):
            touched = (move.get("card") or move["discard"],)
    return Frame(
        key=key,
        actor=actor,
        move=move,
        hand=tuple(view.get("hand", ())),
        melds=melds,
        pile=tuple(view["discard_pile"]),
        stock_count=view["stock_count"],
        hand_counts={p["username"]: p["hand_count"] for p in view["players"]},
        touched=touched,
        meld=meld,
        points=points,
        view=view,
    )


def run(script: Script) -> tuple[RoundState, list[tuple[RoundState, RoundState, Step]]]:
    """The round dealt from the script's stacked deck and every step applied (``IllegalMove`` on a refused one):
    the dealt state and each step with the states before and after it."""
    rules = Ruleset.preset(script.preset, **dict(script.options))
    deck = stacked_deck(rules, script.hands, dealer=script.dealer, up=script.up, stock=script.stock)
    state = new_round(rules, script.players, script.dealer, deck=deck, salt="0" * 32)
    for seat, hand in enumerate(script.hands):
        dealt = _counts(state.hands[seat])
        if _counts(hand) - dealt:
            raise ValueError(f"{script.preset}: seat {seat} was not dealt {sorted(hand)}.")
    dealt_state = state
    steps = []
    for step in script.steps:
        after = apply_move(state, step.player, step.move)
        steps.append((state, after, step))
        state = after
    return dealt_state, steps


def frames_of(script: Script) -> list[Frame]:
    dealt, steps = run(script)
    frames = [_frame("deal", None, dealt, None)]
    for before, after, step in steps:
        if step.frame:
            frames.append(_frame(step.frame, before, after, step.player))
    last = steps[-1][1] if steps else dealt
    if last.phase != "over":
        raise ValueError(f"{script.preset}: the script does not finish the round.")
    frames.append(_frame("score", None, last, None))
    return frames

"""The scripted rounds of the how-to-play pages, one per preset: the hands dealt, the top of the stock, and the
moves, each picture named by its caption key (play/learn/words.py words them; tests/learn/test_scripts.py checks
that each picture shows what its caption says). Two players: the learner ("you", seat 0) and Anna, who deals, so
the learner starts."""

from __future__ import annotations

from functools import cache
from typing import Any

from .frames import LEARNER as YOU
from .frames import Frame, Script, Step, frames_of

ANNA = "anna"
STOCK: dict[str, Any] = {"type": "draw", "source": "stock"}


def meld(*cards: str) -> dict[str, Any]:
    return {"type": "meld", "cards": list(cards)}


def melds(*groups: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "meld", "melds": [list(g) for g in groups]}


def lay(meld_id: str, *cards: str) -> dict[str, Any]:
    return {"type": "lay_off", "meld": meld_id, "cards": list(cards)}


def discard(card: str) -> dict[str, Any]:
    return {"type": "discard", "card": card}


def pile(card: str) -> dict[str, Any]:
    return {"type": "draw", "source": "discard", "card": card}


# Rummy 500: a set and a run with a joker in the first turn, a lay-off on Anna's run, out with a final discard.
RUMMY500 = Script(
    preset="rummy500",
    hands=(("7S", "7H", "7D", "4H", "5H", "JK", "KC"), ("8S", "9S", "TS", "2D", "3C", "5C", "QD")),
    up="2S",
    stock=("9C", "6D", "JS"),
    steps=(
        Step(YOU, STOCK, "draw"),
        Step(YOU, meld("7S", "7H", "7D"), "set"),
        Step(YOU, meld("4H", "5H", "JK:6H"), "run_joker"),
        Step(YOU, discard("KC"), "discard"),
        Step(ANNA, STOCK),
        Step(ANNA, meld("8S", "9S", "TS"), "other_meld"),
        Step(ANNA, discard("QD"), "other_discard"),
        Step(YOU, STOCK, "draw"),
        Step(YOU, lay("m3", "JS"), "lay_off"),
        Step(YOU, discard("9C"), "out"),
    ),
)

# Household rules: 13 cards each; a card taken from the discard pile must be used at once (the kings' set).
HOUSEHOLD = Script(
    preset="rummy500_household",
    hands=(
        ("7S", "7H", "7D", "4H", "5H", "JK", "9D", "TD", "JD", "KS", "KH", "JS", "8C"),
        ("8S", "9S", "TS", "KC", "2D", "3D", "5D", "6C", "4C", "AH", "9H", "2H", "QS"),
    ),
    up="2S",
    stock=("3C",),
    steps=(
        Step(YOU, STOCK, "draw"),
        Step(YOU, meld("7S", "7H", "7D"), "set"),
        Step(YOU, meld("4H", "5H", "JK:6H"), "run_joker"),
        Step(YOU, meld("9D", "TD", "JD"), "run"),
        Step(YOU, discard("8C"), "discard"),
        Step(ANNA, STOCK),
        Step(ANNA, meld("8S", "9S", "TS"), "other_meld"),
        Step(ANNA, discard("KC"), "other_discard"),
        Step(YOU, pile("KC"), "draw_pile"),
        Step(YOU, meld("KS", "KH", "KC"), "set_from_pile"),
        Step(YOU, lay("m4", "JS"), "lay_off"),
        Step(YOU, discard("3C"), "out"),
    ),
)


def _basic(preset: str) -> Script:
    """Basic Rummy and Block Rummy: one meld a turn, no jokers; out by melding the last cards (no final discard)."""
    return Script(
        preset=preset,
        hands=(
            ("7S", "7H", "7D", "4H", "5H", "6H", "9D", "TD", "JD", "2C"),
            ("8S", "9S", "TS", "AD", "3D", "5C", "6C", "9H", "KH", "4S"),
        ),
        up="2S",
        stock=("KC", "AC", "QD", "3H", "JS"),
        steps=(
            Step(YOU, STOCK, "draw"),
            Step(YOU, meld("7S", "7H", "7D"), "set"),
            Step(YOU, discard("2C"), "discard"),
            Step(ANNA, STOCK),
            Step(ANNA, meld("8S", "9S", "TS"), "other_meld"),
            Step(ANNA, discard("AC")),
            Step(YOU, STOCK, "draw"),
            Step(YOU, meld("4H", "5H", "6H"), "run"),
            Step(YOU, discard("KC")),
            Step(ANNA, STOCK),
            Step(ANNA, discard("3H"), "other_discard"),
            Step(YOU, STOCK, "draw"),
            Step(YOU, lay("m2", "JS"), "lay_off"),
            Step(YOU, meld("9D", "TD", "JD", "QD"), "out_meld"),
        ),
    )


# Wrotham: the learner starts with eight cards and no draw; several melds a turn; out with a discard.
WROTHAM = Script(
    preset="wrotham",
    hands=(("7S", "7H", "7D", "4H", "5H", "JK", "2C", "KC"), ("8S", "9S", "TS", "AD", "3D", "5C", "9H")),
    stock=("QC", "JS"),
    steps=(
        Step(YOU, meld("7S", "7H", "7D"), "set"),
        Step(YOU, meld("4H", "5H", "JK:6H"), "run_joker"),
        Step(YOU, discard("2C"), "discard"),
        Step(ANNA, STOCK),
        Step(ANNA, meld("8S", "9S", "TS"), "other_meld"),
        Step(ANNA, discard("QC"), "other_discard"),
        Step(YOU, STOCK, "draw"),
        Step(YOU, lay("m3", "JS"), "lay_off"),
        Step(YOU, discard("KC"), "out"),
    ),
)

# Rommé: the opening (a set and a run worth 60, one move), a run with a joker, Anna's opening, out by a lay-off.
ROMME = Script(
    preset="romme",
    hands=(
        ("7S", "7H", "7D", "9D", "TD", "JD", "QD", "4H", "5H", "JK", "JS", "2C", "KC"),
        ("8S", "9S", "TS", "QH", "QS", "QC", "AD", "3H", "5C", "6D", "9C", "KH", "4S"),
    ),
    up="3S",
    stock=("2D", "6S", "2S"),
    steps=(
        Step(YOU, STOCK, "draw"),
        Step(YOU, melds(("7S", "7H", "7D"), ("9D", "TD", "JD", "QD")), "opening"),
        Step(YOU, meld("4H", "5H", "JK:6H"), "run_joker"),
        Step(YOU, discard("KC"), "discard"),
        Step(ANNA, STOCK),
        Step(ANNA, melds(("8S", "9S", "TS"), ("QS", "QH", "QC")), "other_opening"),
        Step(ANNA, discard("6S"), "other_discard"),
        Step(YOU, STOCK, "draw"),
        Step(YOU, meld("2S", "2D", "2C"), "set"),
        Step(YOU, lay("m4", "JS"), "out_lay_off"),
    ),
)

# Board Rummy: fifteen tiles to the learner, who opens by discarding; Anna draws and discards; the learner draws
# and closes (a group of four, three runs, one with a joker); the trump's twin pays its bonus.
BOARD = Script(
    preset="board",
    hands=(
        ("R7", "Y7", "B7", "B1", "B2", "B3", "B4", "K10", "K11", "K12", "Y4", "JK", "Y6", "R13", "Y10"),
        ("R1", "Y2", "B5", "K3", "R4", "Y5", "B6", "K8", "R9", "Y11", "B12", "K13", "R10", "Y1"),
    ),
    up="R13",
    stock=("Y12", "K7"),
    steps=(
        Step(YOU, discard("Y10"), "discard"),
        Step(ANNA, STOCK),
        Step(ANNA, discard("Y12"), "other_discard"),
        Step(YOU, STOCK, "draw"),
        Step(YOU, {"type": "close", "discard": "R13"}, "close"),
    ),
)

SCRIPTS: dict[str, Script] = {
    "rummy500": RUMMY500,
    "rummy500_household": HOUSEHOLD,
    "basic": _basic("basic"),
    "block": _basic("block"),
    "wrotham": WROTHAM,
    "romme": ROMME,
    "board": BOARD,
}


@cache
def frames(preset: str) -> tuple[Frame, ...]:
    """The illustrations of a preset's page, built once per process (a KeyError for a preset with no script)."""
    return tuple(frames_of(SCRIPTS[preset]))

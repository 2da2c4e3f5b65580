"""The demo's stacked Rummy 500 deal and the guide's script (pure: no Django; docs/web.md "The demo").

One round, the player against one bot (the engine's ``GreedyBot``, level "medium") on a deck stacked so
that, when the player follows the guide and the bot plays as it always does (the greedy bot is
deterministic: it holds no state and breaks every tie in a fixed order), each step of the seed's rules
comes up in order:

1. the player draws from the stock (the Q♠, which fits nothing) and
2. discards it;
3. the bot draws from the stock, melds three kings and discards the 7♣;
4. the player takes the 8♥ from the bottom of the discard pile, and every card above it (a deep draw:
   the 8♥ must be used this turn),
5. melds a set with it (8♠ 8♦ 8♥),
6. a run with a joker (3♣ 4♣ ★ 6♣, the joker standing for the 5♣),
7. lays the K♥ off on the bot's kings,
8. lays the 7♣ the bot threw off on the run,
9. and goes out by discarding the Q♠ (taken back with the pile);
10. the round is scored: placed minus in hand (the player 59 - 0, the bot 30 - 14).

Each step is the situation the player sees (their own view: phase, whose turn, their hand, the pile and
the melds), the move the guide asks for and the keys of its instruction and hint (the client's words:
play/static/play/js/demo.js). The client picks the first step whose situation matches the view and whose
move is legal, so a player who strays from the script is never stuck: no step matches, and the guide gives
general help instead. ``tests/tournaments/practice/demo/test_script.py`` plays the script through the engine with the
greedy bot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.engine import Ruleset, stacked_deck
from tournaments.engine.deal import shuffled

GAME = "rummy500"
BOT = "Bot Anna"  # the practice tables' first bot (docs/tables.md); the dealer, so the player starts
LEVEL = "medium"  # the greedy bot

PLAYER_HAND: tuple[str, ...] = ("8S", "8D", "3C", "4C", "JK", "6C", "KH")
BOT_HAND: tuple[str, ...] = ("KS", "KD", "KC", "7C", "2D", "3H", "5S")
UP_CARD = "8H"
# The top of the stock: the player's first draw, then the bot's.
STOCK_TOP: tuple[str, ...] = ("QS", "4S")
# The rest of the stock, in an order fixed once (a player who strays draws from it).
STOCK_SEED = 500


PLAYER = "player"  # the script's name for the person; the view's usernames are mapped to it


def deck() -> tuple[str, ...]:
    """The stacked deck, top first, as ``engine.new_round(deck=...)`` takes it, for a two-player round
    dealt by the bot (seat 1): the hands, then the up-card, then the stock's top over the rest, which is
    shuffled once from ``STOCK_SEED`` (a player who strays draws from it)."""
    return tuple(
        stacked_deck(
            Ruleset.preset(GAME),
            [PLAYER_HAND, BOT_HAND],
            dealer=1,
            up=UP_CARD,
            stock=STOCK_TOP,
            fillers=lambda unused: list(shuffled(unused, STOCK_SEED)),
        )
    )


DEALER = BOT


@dataclass(frozen=True)
class Step:
    """One step of the guide: when the player's view matches ``expect`` and ``move`` is legal, the guide
    says ``text`` (and ``hint`` when the player seems stuck), highlighting ``select`` (cards of the hand),
    ``meld`` (a meld on the table) or the stock or pile card the move names.

    ``expect``: ``turn`` ("player" or "bot"), ``phase``, and optionally ``hand`` (exactly these cards),
    ``holds`` (at least these), ``pile`` (exactly this pile, bottom first), ``melds`` (exactly these melds,
    each as its cards in any order, jokers as "JK"), ``table`` (a meld on the table holds at least these
    cards). ``move`` is the player's move (None for the bot's
    turn and the scoring); ``bot_moves`` the moves the bot makes in its turn."""

    key: str
    expect: Mapping[str, Any]
    move: Mapping[str, Any] | None
    text: str
    hint: str
    select: tuple[str, ...] = ()
    meld: str | None = None
    bot_moves: tuple[Mapping[str, Any], ...] = ()
    scores: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "expect": _json(self.expect),
            "move": None if self.move is None else dict(self.move),
            "text": self.text,
            "hint": self.hint,
            "select": list(self.select),
            "meld": self.meld,
            "bot_moves": [dict(m) for m in self.bot_moves],
            "scores": dict(self.scores),
        }


def _json(value: Any) -> Any:
    """Tuples as lists, mappings as dicts: the JSON the client reads."""
    if isinstance(value, Mapping):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


KINGS = ("KS", "KD", "KC")
SET = ("8S", "8D", "8H")
RUN = ("3C", "4C", "JK", "6C")

STEPS: tuple[Step, ...] = (
    Step(
        key="draw_stock",
        expect={"turn": PLAYER, "phase": "draw", "hand": PLAYER_HAND, "pile": (UP_CARD,), "melds": ()},
        move={"type": "draw", "source": "stock"},
        text="demo.draw_stock",
        hint="demo.draw_stock.hint",
    ),
    Step(
        key="discard",
        expect={
            "turn": PLAYER,
            "phase": "play",
            "hand": (*PLAYER_HAND, "QS"),
            "pile": (UP_CARD,),
            "melds": (),
        },
        move={"type": "discard", "card": "QS"},
        text="demo.discard",
        hint="demo.discard.hint",
        select=("QS",),
    ),
    Step(
        key="bot_turn",
        expect={"turn": "bot", "hand": PLAYER_HAND},
        move=None,
        text="demo.bot_turn",
        hint="demo.bot_turn.hint",
        bot_moves=(
            {"type": "draw", "source": "stock"},
            {"type": "meld", "cards": list(KINGS)},
            {"type": "discard", "card": "7C"},
        ),
    ),
    Step(
        key="deep_draw",
        expect={
            "turn": PLAYER,
            "phase": "draw",
            "hand": PLAYER_HAND,
            "pile": (UP_CARD, "QS", "7C"),
            "melds": (KINGS,),
        },
        move={"type": "draw", "source": "discard", "card": UP_CARD, "index": 0},
        text="demo.deep_draw",
        hint="demo.deep_draw.hint",
    ),
    Step(
        key="meld_set",
        expect={"turn": PLAYER, "phase": "play", "holds": SET, "table": KINGS},
        move={"type": "meld", "cards": list(SET)},
        text="demo.meld_set",
        hint="demo.meld_set.hint",
        select=SET,
    ),
    Step(
        key="meld_run",
        expect={"turn": PLAYER, "phase": "play", "holds": RUN, "table": KINGS},
        move={"type": "meld", "cards": ["3C", "4C", "JK:5C", "6C"]},
        text="demo.meld_run",
        hint="demo.meld_run.hint",
        select=RUN,
    ),
    Step(
        key="lay_off_bot",
        expect={"turn": PLAYER, "phase": "play", "holds": ("KH",), "table": KINGS},
        move={"type": "lay_off", "meld": "m1", "cards": ["KH"]},
        text="demo.lay_off_bot",
        hint="demo.lay_off_bot.hint",
        select=("KH",),
        meld="m1",
    ),
    Step(
        key="lay_off_own",
        expect={"turn": PLAYER, "phase": "play", "holds": ("7C",), "table": KINGS},
        move={"type": "lay_off", "meld": "m3", "cards": ["7C"]},
        text="demo.lay_off_own",
        hint="demo.lay_off_own.hint",
        select=("7C",),
        meld="m3",
    ),
    Step(
        key="go_out",
        expect={"turn": PLAYER, "phase": "play", "hand": ("QS",), "table": KINGS},
        move={"type": "discard", "card": "QS"},
        text="demo.go_out",
        hint="demo.go_out.hint",
        select=("QS",),
    ),
    Step(
        key="score",
        expect={"phase": "over", "hand": ()},
        move=None,
        text="demo.score",
        hint="demo.score.hint",
        scores={PLAYER: 59, "bot": 16},
    ),
)


def script() -> list[dict[str, Any]]:
    """The steps as JSON (the demo endpoint's answer gives them to the client)."""
    return [s.to_json() for s in STEPS]


# ------------------------------------------------------------------------------ matching a view to a step


def _plain(card: str) -> str:
    return "JK" if card.startswith("JK") else card


def _same(a: Sequence[str], b: Sequence[str]) -> bool:
    return Counter(map(_plain, a)) == Counter(map(_plain, b))


def same_move(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two moves are the same, cards compared as multisets and jokers without what they stand for."""
    if a.get("type") != b.get("type"):
        return False
    for key in set(a) | set(b):
        if key == "cards":
            if not _same(a.get("cards", ()), b.get("cards", ())):
                return False
        elif a.get(key) != b.get(key):
            return False
    return True


def situation_matches(step: Step, view: Mapping[str, Any], player: str) -> bool:
    """Whether ``view`` (``player``'s view of the round, the engine's ``player_view``) is the situation the
    step expects."""
    expect = step.expect
    turn = (view.get("turn") or {}).get("player")
    if "turn" in expect and (turn == player) != (expect["turn"] == PLAYER):
        return False
    if "phase" in expect and view.get("phase") != expect["phase"]:
        return False
    hand = list(view.get("hand") or ())
    if "hand" in expect and not _same(hand, expect["hand"]):
        return False
    if "holds" in expect and Counter(map(_plain, expect["holds"])) - Counter(map(_plain, hand)):
        return False
    if "pile" in expect and list(view.get("discard_pile") or ()) != list(expect["pile"]):
        return False
    if "melds" in expect:
        melds = [m["cards"] for m in view.get("melds") or ()]
        if len(melds) != len(expect["melds"]) or not all(
            _same(m, e) for m, e in zip(melds, expect["melds"], strict=True)
        ):
            return False
    wanted = Counter(map(_plain, expect.get("table", ())))
    return not wanted or any(not wanted - Counter(map(_plain, m["cards"])) for m in view.get("melds") or ())


def current_step(view: Mapping[str, Any], player: str, legal: Sequence[Mapping[str, Any]]) -> Step | None:
    """The first step whose situation matches and whose move (if any) is among ``legal``; None off the
    script (the client's ``demo.js`` does the same)."""
    for step in STEPS:
        if not situation_matches(step, view, player):
            continue
        if step.move is None or any(same_move(step.move, m) for m in legal):
            return step
    return None

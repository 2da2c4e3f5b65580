"""Rulesets: a preset name plus validated options (RULES.md §2; the other families plug in here).

A ``Ruleset`` is a frozen value holding every switch the engine reads. Presets fix the structural
fields (deck, card values, stock exhaustion); ``Ruleset.preset(name, **options)`` lets a table change
only the options RULES.md names for that preset and validates them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

PRESETS = ("rummy500", "rummy500_household", "basic", "block", "wrotham", "romme", "board")
IMPLEMENTED_PRESETS = ("rummy500", "rummy500_household")


class RulesetError(ValueError):
    """A bad preset or option; ``code`` is stable (``ruleset.unknown_option`` ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Ruleset:
    """Every rule the engine reads. Build with ``Ruleset.preset``; fields are read-only."""

    name: str
    family: str  # "rummy500" now; "basic" and "board" families reuse the same state machine
    min_players: int
    max_players: int
    decks: int
    jokers_per_deck: int
    two_decks_from: int | None  # player count from which two decks are used (001: 5)
    hand_size: int
    hand_size_two_players: int
    up_card: bool
    deep_draw: bool  # any card of the discard pile may be drawn (with the cards above it)
    top_discard_must_be_used: bool
    final_discard_required: bool
    ace_high: bool
    round_the_corner: bool
    joker_swap: bool
    swapped_joker_must_be_melded: bool
    min_natural: int
    ace_table_value: int
    ace_low_value: int
    ace_hand_value: int
    joker_table_value: int | None
    joker_hand_value: int
    low_cards_five: bool
    stock_exhaustion: str  # "end": round ends when a turn ends on an empty stock; "pile_only": 001
    target_score: int | None
    rounds: int | None
    stall_turns: int | None  # None: 4 x players
    rummy_calls: bool
    rummy_in_the_pile: bool
    rummy_call_seconds: int
    options: tuple[tuple[str, Any], ...] = ()  # the options given to ``preset``, for storage

    # ------------------------------------------------------------------ construction

    @classmethod
    def preset(cls, name: str, **options: Any) -> Ruleset:
        """The preset ``name`` with ``options`` applied; ``RulesetError`` (a ValueError) when bad."""
        if name not in PRESETS:
            raise RulesetError(
                "ruleset.unknown_preset", f"Unknown game {name!r}; presets: {', '.join(PRESETS)}."
            )
        if name not in _BASE:
            raise RulesetError("ruleset.not_implemented", f"The {name!r} preset is not implemented yet.")
        base = _BASE[name]
        allowed = _OPTIONS[name]
        changes: dict[str, Any] = {}
        for key, value in options.items():
            if key not in allowed:
                raise RulesetError(
                    "ruleset.unknown_option",
                    f"Unknown option {key!r} for {name}; options: {', '.join(sorted(allowed))}.",
                )
            changes[key] = _check(key, value, allowed[key])
        rules = replace(base, **changes, options=tuple(sorted(changes.items())))
        if rules.target_score is None and rules.rounds is None:
            raise RulesetError("ruleset.bad_value", "A game needs a target_score or a number of rounds.")
        if rules.swapped_joker_must_be_melded and not rules.joker_swap:
            raise RulesetError("ruleset.bad_value", "swapped_joker_must_be_melded needs joker_swap.")
        if rules.rummy_in_the_pile and not rules.rummy_calls:
            raise RulesetError("ruleset.bad_value", "rummy_in_the_pile needs rummy_calls.")
        return rules

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Inverse of ``to_dict``. Rulesets are immutable, so equal data gives the same (cached) object:
        a stored round state names its ruleset, and is read on every move."""
        name = str(data["preset"])
        options = dict(data.get("options") or {})
        try:
            key = (name, tuple(sorted(options.items())))
            hash(key)
        except TypeError:  # an unhashable option value: refused by preset() with its own message
            return cls.preset(name, **options)
        return _cached_preset(key)

    def to_dict(self) -> dict[str, Any]:
        """{"preset": name, "options": {...}}: all that is needed to rebuild this ruleset."""
        return {"preset": self.name, "options": dict(self.options)}

    def option_values(self) -> dict[str, Any]:
        """Every option of this preset with its effective value (defaults included)."""
        return {k: getattr(self, k) for k in _OPTIONS[self.name]}

    # ------------------------------------------------------------------ derived

    def deck_count(self, n_players: int) -> int:
        if self.two_decks_from is not None and n_players >= self.two_decks_from:
            return 2
        return self.decks

    def jokers(self, n_players: int) -> int:
        return self.jokers_per_deck * self.deck_count(n_players)

    def cards_each(self, n_players: int) -> int:
        return self.hand_size_two_players if n_players == 2 else self.hand_size

    def stall_limit(self, n_players: int) -> int:
        return self.stall_turns if self.stall_turns is not None else 4 * n_players


# option name -> (kind, minimum, maximum); kind "bool", "int" or "int?" (None allowed)
_Spec = tuple[str, int, int]


def _check(key: str, value: Any, spec: _Spec) -> Any:
    kind, lo, hi = spec
    if kind == "bool":
        if not isinstance(value, bool):
            raise RulesetError("ruleset.bad_value", f"Option {key} must be true or false, not {value!r}.")
        return value
    if value is None and kind == "int?":
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise RulesetError(
            "ruleset.bad_value", f"Option {key} must be an integer from {lo} to {hi}, not {value!r}."
        )
    return value


_RUMMY500_OPTIONS: dict[str, _Spec] = {
    "hand_size_two_players": ("int", 3, 20),
    "top_discard_must_be_used": ("bool", 0, 0),
    "final_discard_required": ("bool", 0, 0),
    "ace_high": ("bool", 0, 0),
    "round_the_corner": ("bool", 0, 0),
    "joker_swap": ("bool", 0, 0),
    "swapped_joker_must_be_melded": ("bool", 0, 0),
    "low_cards_five": ("bool", 0, 0),
    "target_score": ("int?", 1, 1_000_000),
    "rounds": ("int?", 1, 1000),
    "stall_turns": ("int?", 1, 10_000),
    "rummy_calls": ("bool", 0, 0),
    "rummy_in_the_pile": ("bool", 0, 0),
    "rummy_call_seconds": ("int", 1, 600),
}

_RUMMY500 = Ruleset(
    name="rummy500",
    family="rummy500",
    min_players=2,
    max_players=4,
    decks=1,
    jokers_per_deck=2,
    two_decks_from=None,
    hand_size=7,
    hand_size_two_players=7,
    up_card=True,
    deep_draw=True,
    top_discard_must_be_used=False,
    final_discard_required=True,
    ace_high=True,
    round_the_corner=False,
    joker_swap=True,
    swapped_joker_must_be_melded=False,
    min_natural=2,
    ace_table_value=11,
    ace_low_value=1,
    ace_hand_value=15,
    joker_table_value=None,
    joker_hand_value=15,
    low_cards_five=False,
    stock_exhaustion="end",
    target_score=500,
    rounds=None,
    stall_turns=None,
    rummy_calls=False,
    rummy_in_the_pile=False,
    rummy_call_seconds=5,
)

_HOUSEHOLD = replace(
    _RUMMY500,
    name="rummy500_household",
    max_players=8,
    two_decks_from=5,
    hand_size_two_players=13,
    ace_table_value=15,
    ace_hand_value=15,
    joker_table_value=15,
    joker_hand_value=15,
    top_discard_must_be_used=True,
    target_score=5000,
    rummy_calls=True,
    stock_exhaustion="pile_only",
)

_BASE: dict[str, Ruleset] = {"rummy500": _RUMMY500, "rummy500_household": _HOUSEHOLD}
_OPTIONS: dict[str, dict[str, _Spec]] = {
    "rummy500": _RUMMY500_OPTIONS,
    "rummy500_household": _RUMMY500_OPTIONS,
}

OPTION_NAMES: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in _OPTIONS.items()}
RULESET_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Ruleset))


@functools.lru_cache(maxsize=256)
def _cached_preset(key: tuple[str, tuple[tuple[str, Any], ...]]) -> Ruleset:
    name, options = key
    return Ruleset.preset(name, **dict(options))

"""Rulesets: a preset name, the fields every family shares, and the family's own options (docs/rules.md).

A ``Ruleset`` is a frozen value holding every switch the engine reads. The common fields are the
table's shape (players, decks, hand sizes), the meld and card-value rules the shared modules read
(``melds``, ``cards``, ``solver``, the turn search) and the game's end (``target_score``, ``rounds``,
``stall_turns``). What only one family reads lives in ``own``, that family's ``FamilyOptions``.

Each family module registers its presets here (``register_preset``); ``Ruleset.preset(name, **options)``
lets a table change only the options that preset names, validates them, and routes each one to a
common field or to ``own``. Tables store ``to_dict()``: ``{"preset", "options"}``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import RuleCode

# Every game of docs/rules.md; a preset no family has registered is "not implemented".
PRESETS = ("rummy500", "rummy500_household", "basic", "block", "wrotham", "romme", "board")


class RulesetError(ValueError):
    """A bad preset or option; ``code`` is stable (``ruleset.unknown_option`` ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class FamilyOptions:
    """Base of a family's own options (a frozen dataclass per family, e.g. ``Rummy500Options``)."""


@dataclass(frozen=True)
class Ruleset:
    """Every rule the engine reads. Build with ``Ruleset.preset``; fields are read-only.

    A family option is also readable as an attribute (``rules.rummy_calls``), as the apps and the tests
    read them; engine code reads it typed, through the family's ``own`` options.
    """

    name: str
    family: str  # the family module that plays this preset (``families.family_of``)
    min_players: int
    max_players: int
    decks: int
    jokers_per_deck: int
    two_decks_from: int | None  # player count from which two decks are used (001: 5)
    hand_size: int
    hand_size_two_players: int
    up_card: bool  # one card starts the discard pile after the deal
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
    target_score: int | None
    rounds: int | None
    stall_turns: int | None  # None: 4 x players
    # Cards each from five players where that differs (Basic Rummy: 6); None: ``hand_size``.
    hand_size_many_players: int | None = None
    # Penalty scoring (Basic Rummy): game points are penalties and the lowest total wins the game.
    lowest_wins: bool = False
    own: FamilyOptions = FamilyOptions()
    options: tuple[tuple[str, Any], ...] = ()  # the options given to ``preset``, for storage

    def __getattr__(self, name: str) -> object:
        # Only reached for names that are not common fields: a family option, read from ``own``.
        own = self.__dict__.get("own")
        if own is None or name.startswith("_"):
            raise AttributeError(name)
        return getattr(own, name)

    # ------------------------------------------------------------------ construction

    @classmethod
    def preset(cls, name: str, **options: Any) -> Ruleset:
        """The preset ``name`` with ``options`` applied; ``RulesetError`` (a ValueError) when bad."""
        if name not in PRESETS:
            raise RulesetError(
                RuleCode.RULESET_UNKNOWN_PRESET, f"Unknown game {name!r}; presets: {', '.join(PRESETS)}."
            )
        if name not in _REGISTRY:
            raise RulesetError(
                RuleCode.RULESET_NOT_IMPLEMENTED, f"The {name!r} preset is not implemented yet."
            )
        spec = _REGISTRY[name]
        common: dict[str, Any] = {}
        own: dict[str, Any] = {}
        own_names = {f.name for f in fields(spec.base.own)}
        for key, value in options.items():
            if key not in spec.options:
                raise RulesetError(
                    RuleCode.RULESET_UNKNOWN_OPTION,
                    f"Unknown option {key!r} for {name}; options: {', '.join(sorted(spec.options))}.",
                )
            (own if key in own_names else common)[key] = _check(key, value, spec.options[key])
        rules = replace(
            spec.base,
            **common,
            own=replace(spec.base.own, **own),
            options=tuple(sorted({**common, **own}.items())),
        )
        if rules.target_score is None and rules.rounds is None:
            raise RulesetError(
                RuleCode.RULESET_BAD_VALUE, "A game needs a target_score or a number of rounds."
            )
        if rules.swapped_joker_must_be_melded and not rules.joker_swap:
            raise RulesetError(RuleCode.RULESET_BAD_VALUE, "swapped_joker_must_be_melded needs joker_swap.")
        if spec.validate is not None:
            spec.validate(rules)
        if spec.derive is not None:
            rules = spec.derive(rules)
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
        own = {f.name for f in fields(self.own)}
        return {k: getattr(self.own if k in own else self, k) for k in _REGISTRY[self.name].options}

    # ------------------------------------------------------------------ derived

    def deck_count(self, n_players: int) -> int:
        if self.two_decks_from is not None and n_players >= self.two_decks_from:
            return 2
        return self.decks

    def jokers(self, n_players: int) -> int:
        return self.jokers_per_deck * self.deck_count(n_players)

    def cards_each(self, n_players: int) -> int:
        if n_players == 2:
            return self.hand_size_two_players
        if n_players >= 5 and self.hand_size_many_players is not None:
            return self.hand_size_many_players
        return self.hand_size

    def stall_limit(self, n_players: int) -> int:
        return self.stall_turns if self.stall_turns is not None else 4 * n_players


# ---------------------------------------------------------------------- options and presets

# option name -> (kind, minimum, maximum); kind "bool", "int" or "int?" (None allowed); or
# ("choice", (names...)): one of those strings.
OptionSpec = tuple[str, int, int] | tuple[str, tuple[str, ...]]


def _check(key: str, value: Any, spec: OptionSpec) -> Any:
    kind, lo, hi = spec[0], spec[1], spec[-1]
    if isinstance(lo, tuple):  # ("choice", names)
        if not isinstance(value, str) or value not in lo:
            raise RulesetError(
                RuleCode.RULESET_BAD_VALUE, f"Option {key} must be one of {', '.join(lo)}, not {value!r}."
            )
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise RulesetError(
                RuleCode.RULESET_BAD_VALUE, f"Option {key} must be true or false, not {value!r}."
            )
        return value
    if value is None and kind == "int?":
        return None
    assert isinstance(hi, int)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise RulesetError(
            RuleCode.RULESET_BAD_VALUE, f"Option {key} must be an integer from {lo} to {hi}, not {value!r}."
        )
    return value


# Options every family that keeps score over a game offers.
GAME_OPTIONS: dict[str, OptionSpec] = {
    "target_score": ("int?", 1, 1_000_000),
    "rounds": ("int?", 1, 1000),
    "stall_turns": ("int?", 1, 10_000),
}


def N_(text: str) -> str:
    """Marks a name for people for the catalogs (deploy/catalogs.py collects ``N_("...")``): the engine keeps
    the English, the site translates it where it shows it."""
    return text


@dataclass(frozen=True)
class PresetSpec:
    """A preset as its family registers it: the defaults, the options a table may change, and the
    family's own cross-option checks (``validate`` raises ``RulesetError``), the fields it derives
    from the options (``derive``: Basic Rummy's ace counts 15 in hand with ``ace_high``), and the game's
    name for people (``title``, English, marked with ``N_``)."""

    base: Ruleset
    options: Mapping[str, OptionSpec]
    validate: Callable[[Ruleset], None] | None = None
    derive: Callable[[Ruleset], Ruleset] | None = None
    title: str = ""


_REGISTRY: dict[str, PresetSpec] = {}


def register_preset(spec: PresetSpec) -> None:
    """Make ``spec.base.name`` playable (a family module calls this when it is imported)."""
    if spec.base.name not in PRESETS:
        raise ValueError(f"{spec.base.name!r} is not a game of docs/rules.md.")
    if not set(spec.options) <= {f.name for f in fields(Ruleset)} | {f.name for f in fields(spec.base.own)}:
        raise ValueError(f"{spec.base.name}: an option names no field.")
    _REGISTRY[spec.base.name] = spec
    _cached_preset.cache_clear()


def implemented_presets() -> tuple[str, ...]:
    """The presets some family plays, in docs/rules.md order."""
    return tuple(p for p in PRESETS if p in _REGISTRY)


def preset_title(preset: str) -> str:
    """The game's name for people, in English (its family declares it; the site translates it)."""
    return _REGISTRY[preset].title or preset


def preset_family(preset: str) -> str:
    """The family that plays ``preset``: what a rating is kept for (presets of one family share it)."""
    return _REGISTRY[preset].base.family


def option_names(preset: str) -> tuple[str, ...]:
    """The options a table of ``preset`` may set."""
    return tuple(_REGISTRY[preset].options)


@functools.lru_cache(maxsize=256)
def _cached_preset(key: tuple[str, tuple[tuple[str, Any], ...]]) -> Ruleset:
    name, options = key
    return Ruleset.preset(name, **dict(options))

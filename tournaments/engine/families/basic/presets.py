"""The Basic Rummy family's own options and its four presets (docs/rules.md "Basic Rummy family", source 003):
``basic``, ``block``, ``wrotham`` and ``romme``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, cast

from ...rules import (
    GAME_OPTIONS,
    N_,
    FamilyOptions,
    OptionSpec,
    PresetSpec,
    Ruleset,
    register_preset,
)

FAMILY = "basic"
# Wrotham's game is six deals; deals 4-6 of every six (a ring table keeps counting) go all at once.
WROTHAM_DEALS = 6
WROTHAM_ALL_AT_ONCE_FROM = 4


@dataclass(frozen=True)
class BasicOptions(FamilyOptions):
    """What only the Basic family reads (docs/rules.md "Basic Rummy family")."""

    multiple_melds_per_turn: bool = False
    going_rummy: Literal["double", "plus10", "off"] = "double"
    lay_off_requires_own_meld: bool = False
    # "shuffle": the pile becomes the new stock shuffled (from the round's salt); "turn": turned over
    # unshuffled, the oldest discard on top (003); "none": never (block).
    restock: Literal["shuffle", "turn", "none"] = "shuffle"
    restock_limit: int = 2
    scoring: Literal["winner", "penalty"] = "winner"
    joker_penalty: int = 15
    opening_minimum: int = 0  # Rommé: 40; 0 = no opening rule
    all_at_once_late_deals: bool = False  # Wrotham: deals 4-6 go out in one meld move
    starter_extra_card: bool = False  # Wrotham: the starter gets an 8th card and does not draw first


def options_of(rules: Ruleset) -> BasicOptions:
    """``rules.own``, typed; a ruleset of this family always carries these options."""
    return cast(BasicOptions, rules.own)


_COMMON: dict[str, OptionSpec] = {
    "going_rummy": ("choice", ("double", "plus10", "off")),
    "ace_high": ("bool", 0, 0),
    "round_the_corner": ("bool", 0, 0),
    "final_discard_required": ("bool", 0, 0),
    "lay_off_requires_own_meld": ("bool", 0, 0),
    "restock": ("choice", ("shuffle", "turn", "none")),
    "restock_limit": ("int", 0, 100),
    "scoring": ("choice", ("winner", "penalty")),
    **GAME_OPTIONS,
}
BASIC_OPTIONS: dict[str, OptionSpec] = {"multiple_melds_per_turn": ("bool", 0, 0), **_COMMON}
JOKER_OPTIONS: dict[str, OptionSpec] = {
    **_COMMON,
    "joker_swap": ("bool", 0, 0),
    "joker_penalty": ("int", 0, 100),
}
ROMME_OPTIONS: dict[str, OptionSpec] = {**JOKER_OPTIONS, "opening_minimum": ("int", 0, 200)}


def _derive(rules: Ruleset) -> Ruleset:
    """The fields that follow from the options: the ace counts 15 in hand with ``ace_high`` (003),
    a joker in hand ``joker_penalty``, and penalty scoring's lowest total wins."""
    own = options_of(rules)
    ace = 15 if rules.ace_high else 1
    return replace(
        rules,
        ace_hand_value=ace,
        ace_table_value=11 if own.opening_minimum else ace,
        joker_hand_value=own.joker_penalty,
        lowest_wins=own.scoring == "penalty",
    )


BASIC = Ruleset(
    name="basic",
    family=FAMILY,
    min_players=2,
    max_players=6,
    decks=1,
    jokers_per_deck=0,
    two_decks_from=None,
    hand_size=7,
    hand_size_two_players=10,
    hand_size_many_players=6,
    up_card=True,
    final_discard_required=False,
    ace_high=False,
    round_the_corner=False,
    joker_swap=False,
    swapped_joker_must_be_melded=False,
    min_natural=2,
    ace_table_value=1,
    ace_low_value=1,
    ace_hand_value=1,
    joker_table_value=None,
    joker_hand_value=15,
    low_cards_five=False,
    target_score=100,
    rounds=None,
    stall_turns=None,
    own=BasicOptions(),
)

BLOCK = replace(BASIC, name="block", own=BasicOptions(restock="none"))

WROTHAM = replace(
    BASIC,
    name="wrotham",
    jokers_per_deck=3,
    hand_size=7,
    hand_size_two_players=7,
    hand_size_many_players=None,
    up_card=False,
    joker_swap=True,
    target_score=None,
    rounds=WROTHAM_DEALS,
    own=BasicOptions(multiple_melds_per_turn=True, all_at_once_late_deals=True, starter_extra_card=True),
)

ROMME = replace(
    BASIC,
    name="romme",
    decks=2,
    jokers_per_deck=3,
    hand_size=13,
    hand_size_two_players=13,
    hand_size_many_players=None,
    joker_swap=True,
    ace_high=True,
    ace_table_value=11,
    own=BasicOptions(multiple_melds_per_turn=True, opening_minimum=40),
)

# The family's name for people (its rating's) and each preset's.
TITLE = N_("Basic Rummy")
for _base, _options, _title in (
    (BASIC, BASIC_OPTIONS, TITLE),
    (BLOCK, BASIC_OPTIONS, N_("Block Rummy")),
    (WROTHAM, JOKER_OPTIONS, N_("Wrotham")),
    (ROMME, ROMME_OPTIONS, N_("Rommé")),
):
    register_preset(PresetSpec(_derive(_base), _options, derive=_derive, title=_title))

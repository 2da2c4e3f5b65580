"""Rummy 500's own options and its two presets: ``rummy500`` (000) and ``rummy500_household`` (001)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, cast

from ...errors import RuleCode
from ...rules import (
    GAME_OPTIONS,
    N_,
    FamilyOptions,
    OptionSpec,
    PresetSpec,
    Ruleset,
    RulesetError,
    register_preset,
)

FAMILY = "rummy500"


@dataclass(frozen=True)
class Rummy500Options(FamilyOptions):
    """What only Rummy 500 reads (docs/rules.md "Rummy 500")."""

    top_discard_must_be_used: bool = False
    # "end": the round ends when a turn ends on an empty stock (000); "pile_only": a player facing an
    # empty stock may take from the pile only to use the chosen card at once (001).
    stock_exhaustion: Literal["end", "pile_only"] = "end"
    rummy_calls: bool = False
    rummy_in_the_pile: bool = False
    rummy_call_seconds: int = 5


def options_of(rules: Ruleset) -> Rummy500Options:
    """``rules.own``, typed; a ruleset of this family always carries these options."""
    return cast(Rummy500Options, rules.own)


OPTIONS: dict[str, OptionSpec] = {
    "hand_size_two_players": ("int", 3, 20),
    "top_discard_must_be_used": ("bool", 0, 0),
    "final_discard_required": ("bool", 0, 0),
    "ace_high": ("bool", 0, 0),
    "round_the_corner": ("bool", 0, 0),
    "joker_swap": ("bool", 0, 0),
    "swapped_joker_must_be_melded": ("bool", 0, 0),
    "low_cards_five": ("bool", 0, 0),
    **GAME_OPTIONS,
    "rummy_calls": ("bool", 0, 0),
    "rummy_in_the_pile": ("bool", 0, 0),
    "rummy_call_seconds": ("int", 1, 600),
}


def _validate(rules: Ruleset) -> None:
    own = options_of(rules)
    if own.rummy_in_the_pile and not own.rummy_calls:
        raise RulesetError(RuleCode.RULESET_BAD_VALUE, "rummy_in_the_pile needs rummy_calls.")


RUMMY500 = Ruleset(
    name="rummy500",
    family=FAMILY,
    min_players=2,
    max_players=4,
    decks=1,
    jokers_per_deck=2,
    two_decks_from=None,
    hand_size=7,
    hand_size_two_players=7,
    up_card=True,
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
    target_score=500,
    rounds=None,
    stall_turns=None,
    own=Rummy500Options(),
)

HOUSEHOLD = replace(
    RUMMY500,
    name="rummy500_household",
    max_players=8,
    two_decks_from=5,
    hand_size_two_players=13,
    ace_table_value=15,
    ace_hand_value=15,
    joker_table_value=15,
    joker_hand_value=15,
    target_score=5000,
    own=Rummy500Options(top_discard_must_be_used=True, rummy_calls=True, stock_exhaustion="pile_only"),
)

# The family's name for people (its rating's) and each preset's.
TITLE = N_("Rummy 500")
register_preset(PresetSpec(RUMMY500, OPTIONS, _validate, title=TITLE))
register_preset(PresetSpec(HOUSEHOLD, OPTIONS, _validate, title=N_("Rummy 500, household rules")))

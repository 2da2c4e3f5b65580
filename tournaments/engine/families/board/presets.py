"""Board Rummy's own options and its preset ``board`` (docs/rules.md "Board Rummy", source 002)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from ...rules import GAME_OPTIONS, N_, FamilyOptions, OptionSpec, PresetSpec, Ruleset, register_preset

FAMILY = "board"
TILES_EACH = 14  # and a 15th to the first player
TRUMP_BONUS = 100  # paid to the player dealt the trump tile's twin by each opponent
PAIRS_TO_REFUSE = 3  # identical pairs dealt that let a player refuse the deal


@dataclass(frozen=True)
class BoardOptions(FamilyOptions):
    """What only Board Rummy reads."""

    # 002's extra joker is a per-player account item; the table option adds four jokers (110 tiles).
    extra_jokers: bool = False


def options_of(rules: Ruleset) -> BoardOptions:
    """``rules.own``, typed; a ruleset of this family always carries these options."""
    return cast(BoardOptions, rules.own)


def jokers(rules: Ruleset) -> int:
    return 6 if options_of(rules).extra_jokers else 2


OPTIONS: dict[str, OptionSpec] = {"extra_jokers": ("bool", 0, 0), **GAME_OPTIONS}

# The card-game fields below are not read by this family (tiles have no suits, aces or penalties);
# they hold the values closest to 002 so that a generic reader of a ruleset sees sensible ones.
BOARD = Ruleset(
    name="board",
    family=FAMILY,
    min_players=2,
    max_players=4,
    decks=2,
    jokers_per_deck=1,
    two_decks_from=None,
    hand_size=TILES_EACH,
    hand_size_two_players=TILES_EACH,
    up_card=False,
    final_discard_required=True,
    ace_high=False,
    round_the_corner=False,
    joker_swap=False,
    swapped_joker_must_be_melded=False,
    min_natural=1,
    ace_table_value=1,
    ace_low_value=1,
    ace_hand_value=1,
    joker_table_value=None,
    joker_hand_value=0,
    low_cards_five=False,
    target_score=1000,
    rounds=None,
    stall_turns=None,
    own=BoardOptions(),
)

# The family's name for people (its rating's) and its one preset's.
TITLE = N_("Board Rummy")
register_preset(PresetSpec(BOARD, OPTIONS, title=TITLE))

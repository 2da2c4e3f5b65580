"""Card codes, ranks, suits, jokers, card values and decks.

A card is its code, a plain ``str``: rank then suit (``"7H"``, ``"TD"``, ``"AS"``) or the bare joker
``"JK"``. A joker placed on the table is written with the card it stands for: ``"JK:7H"``. Identical
cards of two decks are the same code and interchangeable, so hands are sorted tuples of codes
(multisets). Everything here is pure and cheap; the engine and the solver call it in inner loops.

Rank numbers: ``A`` = 1 (low), ``2``..``9`` face, ``T`` = 10, ``J`` = 11, ``Q`` = 12, ``K`` = 13;
a high ace (``Q-K-A``) takes the position 14 in a run (see ``melds``).

This module is the one place that knows how a code is spelled: every other module reads a card
through ``parse_card`` and the accessors below (``rank_char``, ``rank_of``, ``suit_of``,
``natural_of``, ``is_joker``), never by slicing the string, so a family with other codes (Board
Rummy's tiles ``R7``, ``JK:R7``) adds its parser and accessors here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .errors import RuleCode

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "JK"
JOKER_PREFIX = "JK:"

_RANK_NUMBER = {r: i + 1 for i, r in enumerate(RANKS)}
_SUIT_NUMBER = {s: i for i, s in enumerate(SUITS)}
NATURAL_CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_NATURAL_SET = frozenset(NATURAL_CARDS)
# The accessors' answers for every natural card and placed joker, read once: they run in inner loops.
_PLACED = {c: c for c in NATURAL_CARDS} | {JOKER_PREFIX + c: c for c in NATURAL_CARDS}
_RANK_CHAR = {code: nat[0] for code, nat in _PLACED.items()}
_SUIT_CHAR = {code: nat[1] for code, nat in _PLACED.items()}
_RANK_OF_CODE = {code: _RANK_NUMBER[nat[0]] for code, nat in _PLACED.items()}


class CardError(ValueError):
    """A card code that cannot be parsed; ``code`` names the problem for IllegalMove."""

    def __init__(self, message: str, code: str = RuleCode.CARD_UNKNOWN) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def is_natural(card: str) -> bool:
    """True for a natural card code such as ``"7H"`` (not a joker, not ``JK:7H``)."""
    return card in _NATURAL_SET


def is_joker(card: str) -> bool:
    """True for ``"JK"`` and for a placed joker ``"JK:7H"``."""
    return card == JOKER or card.startswith(JOKER_PREFIX)


def rank_char(card: str) -> str:
    """Rank letter of a natural card (``"7H"`` -> ``"7"``); a placed joker gives the rank it stands for."""
    letter = _RANK_CHAR.get(card)
    if letter is None:
        return natural_of(card)[0]
    return letter


def stands_for(card: str) -> str | None:
    """The natural card a placed joker stands for (``"JK:7H"`` -> ``"7H"``); None for any other code."""
    return card[3:] if card.startswith(JOKER_PREFIX) else None


def rank_of(card: str) -> int:
    """Rank number of a natural card (A=1 .. K=13); a placed joker gives the rank it stands for."""
    number = _RANK_OF_CODE.get(card)
    if number is None:
        return _RANK_NUMBER[natural_of(card)[0]]
    return number


def suit_of(card: str) -> str:
    """Suit letter of a natural card; a placed joker gives the suit it stands for."""
    suit = _SUIT_CHAR.get(card)
    if suit is None:
        return natural_of(card)[1]
    return suit


def natural_of(card: str) -> str:
    """The natural card a code stands for: ``"JK:7H"`` -> ``"7H"``, ``"7H"`` -> ``"7H"``."""
    return card[3:] if card.startswith(JOKER_PREFIX) else card


def make_card(rank: int, suit: str) -> str:
    """Code of rank number ``rank`` (1..13, or 14 for a high ace) in ``suit``."""
    return RANKS[(rank - 1) % 13] + suit


def card_sort_key(card: str) -> tuple[int, int, int]:
    """Canonical hand order: suit S H D C, then rank A..K; jokers last."""
    if card == JOKER:
        return (4, 0, 0)
    if card.startswith(JOKER_PREFIX):
        nat = card[3:]
        return (_SUIT_NUMBER[nat[1]], _RANK_NUMBER[nat[0]], 1)
    return (_SUIT_NUMBER[card[1]], _RANK_NUMBER[card[0]], 0)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in canonical hand order (a hand is kept sorted so equal hands are equal tuples)."""
    return tuple(sorted(cards, key=card_sort_key))


def parse_card(value: object, *, allow_placed_joker: bool = False) -> str:
    """Validate and normalise a card code from untrusted input.

    Accepts any letter case and ``10`` for ``T``; returns the canonical code. ``JK:<card>`` is accepted
    only with ``allow_placed_joker`` (in melds). Raises ``CardError`` with a message naming the value.
    """
    if not isinstance(value, str):
        raise CardError(
            f"A card must be a string such as '7H' or 'JK', not {value!r}.", RuleCode.CARD_MALFORMED
        )
    text = value.strip().upper()
    if text == JOKER:
        return JOKER
    if text.startswith(JOKER_PREFIX):
        if not allow_placed_joker:
            raise CardError(f"'{value}': a joker is written 'JK' here.", RuleCode.CARD_MALFORMED)
        stands_for = parse_card(text[3:])
        if stands_for == JOKER:
            # a placed joker stands for a natural card; "JK:JK" would read as a suit-less card
            raise CardError(
                f"'{value}': a joker stands for a natural card, e.g. 'JK:7H'.", RuleCode.CARD_MALFORMED
            )
        return JOKER_PREFIX + stands_for
    if text.startswith("10"):
        text = "T" + text[2:]
    if text in _NATURAL_SET:
        return text
    raise CardError(
        f"'{value}' is not a card: use rank {'/'.join(RANKS)} then suit {'/'.join(SUITS)} (e.g. 'TH'), or 'JK'."
    )


def parse_cards(values: object, *, allow_placed_joker: bool = False) -> tuple[str, ...]:
    """Parse a JSON list of card codes (see ``parse_card``)."""
    if not isinstance(values, list | tuple):
        raise CardError(f"Expected a list of cards, not {values!r}.", RuleCode.CARD_MALFORMED)
    return tuple(parse_card(v, allow_placed_joker=allow_placed_joker) for v in values)


def build_deck(decks: int = 1, jokers: int = 2) -> tuple[str, ...]:
    """An unshuffled deck: ``decks`` copies of the 52 cards plus ``jokers`` jokers in total."""
    if decks < 1 or jokers < 0:
        raise ValueError("A deck needs at least one 52-card pack and a non-negative number of jokers.")
    return NATURAL_CARDS * decks + (JOKER,) * jokers


def count_cards(cards: Iterable[str]) -> dict[str, int]:
    """Multiset of codes (placed jokers counted as ``JK``)."""
    out: dict[str, int] = {}
    for c in cards:
        k = JOKER if is_joker(c) else c
        out[k] = out.get(k, 0) + 1
    return out


class ValueRules(Protocol):
    """The ruleset fields that card values depend on (``Ruleset`` has them all)."""

    @property
    def ace_table_value(self) -> int: ...  # an ace on the table (not the low ace of A-2-3)

    @property
    def ace_low_value(self) -> int: ...  # an ace played low in a run A-2-3

    @property
    def ace_hand_value(self) -> int: ...

    @property
    def joker_table_value(self) -> int | None: ...  # None: as the card it stands for

    @property
    def joker_hand_value(self) -> int: ...

    @property
    def low_cards_five(self) -> bool: ...  # 2..9 count 5 (001 variant)


def _plain_value(rank: int, low_cards_five: bool) -> int:
    if rank >= 10:
        return 10
    return 5 if low_cards_five else rank


def hand_value(card: str, rules: ValueRules) -> int:
    """Penalty value of a card left in hand."""
    if is_joker(card):
        return rules.joker_hand_value
    rank = _RANK_NUMBER[card[0]]
    if rank == 1:
        return rules.ace_hand_value
    return _plain_value(rank, rules.low_cards_five)


def table_value(card: str, rules: ValueRules, *, ace_low: bool = False) -> int:
    """Value of a placed card (``"7H"`` or ``"JK:7H"``); ``ace_low`` when it is the ace of ``A-2-3``.

    A placed joker takes the value of the card it stands for unless the ruleset fixes a joker value.
    """
    if card.startswith(JOKER_PREFIX):
        if rules.joker_table_value is not None:
            return rules.joker_table_value
        card = card[3:]
    elif card == JOKER:
        return rules.joker_table_value if rules.joker_table_value is not None else rules.joker_hand_value
    rank = _RANK_NUMBER[card[0]]
    if rank == 1:
        return rules.ace_low_value if ace_low else rules.ace_table_value
    return _plain_value(rank, rules.low_cards_five)


def hand_total(cards: Sequence[str], rules: ValueRules) -> int:
    """Penalty of a whole hand."""
    return sum(hand_value(c, rules) for c in cards)


@dataclass(frozen=True)
class Values:
    """A plain ``ValueRules`` for callers without a ``Ruleset`` (tests, the solver)."""

    ace_table_value: int = 11
    ace_low_value: int = 1
    ace_hand_value: int = 15
    joker_table_value: int | None = None
    joker_hand_value: int = 15
    low_cards_five: bool = False


# ========================================================== Board Rummy's tiles (docs/rules.md "Board Rummy")
#
# A tile is its colour then its number: ``R7``, ``K13`` (colours R Y B K: red, yellow, blue, black;
# numbers 1-13), or the joker ``JK``; a joker shown in a combination is written with the tile it stands
# for, ``JK:R7``. Two copies of every tile make the 104 numbered tiles; identical tiles are the same code.

TILE_COLOURS = "RYBK"
TILE_NUMBERS = range(1, 14)
NATURAL_TILES: tuple[str, ...] = tuple(f"{c}{n}" for c in TILE_COLOURS for n in TILE_NUMBERS)
_TILE_SET = frozenset(NATURAL_TILES)
# Accessors' answers for every natural tile and placed joker, read once (the arrangement search is hot).
_TILE_PLACED = {t: t for t in NATURAL_TILES} | {JOKER_PREFIX + t: t for t in NATURAL_TILES}
_TILE_NUMBER = {code: int(nat[1:]) for code, nat in _TILE_PLACED.items()}
_TILE_COLOUR = {code: nat[0] for code, nat in _TILE_PLACED.items()}
_TILE_INDEX = {t: i for i, t in enumerate(NATURAL_TILES)}


def is_tile(code: str) -> bool:
    """True for a natural tile code such as ``"R7"`` (not a joker)."""
    return code in _TILE_SET


def tile_number(tile: str) -> int:
    """The number (1-13) of a natural tile; a placed joker gives the number it stands for."""
    return _TILE_NUMBER[tile]


def tile_colour(tile: str) -> str:
    """The colour letter of a natural tile; a placed joker gives the colour it stands for."""
    return _TILE_COLOUR[tile]


def make_tile(colour: str, number: int) -> str:
    """The code of ``number`` (1-13; 14 reads as 1, the end of a ``12-13-1`` run) in ``colour``."""
    return f"{colour}{(number - 1) % 13 + 1}"


def tile_index(tile: str) -> int:
    """0..51: colour R Y B K then number 1..13 (the canonical order of natural tiles)."""
    return _TILE_INDEX[tile]


def tile_sort_key(tile: str) -> tuple[int, int]:
    """Canonical board order: colour R Y B K, then number 1..13; jokers last."""
    if tile == JOKER:
        return (52, 0)
    if tile.startswith(JOKER_PREFIX):
        return (_TILE_INDEX[tile[3:]], 1)
    return (_TILE_INDEX[tile], 0)


def sort_tiles(tiles: Iterable[str]) -> tuple[str, ...]:
    """Tiles in canonical board order (a board is kept sorted so equal boards are equal tuples)."""
    return tuple(sorted(tiles, key=tile_sort_key))


def parse_tile(value: object, *, allow_placed_joker: bool = False) -> str:
    """Validate and normalise a tile code from untrusted input (any letter case, spaces around).

    ``JK:<tile>`` only with ``allow_placed_joker`` (in the groups of a close). ``CardError`` when bad.
    """
    if not isinstance(value, str):
        raise CardError(
            f"A tile must be a string such as 'R7' or 'JK', not {value!r}.", RuleCode.CARD_MALFORMED
        )
    text = value.strip().upper()
    if text == JOKER:
        return JOKER
    if text.startswith(JOKER_PREFIX):
        if not allow_placed_joker:
            raise CardError(f"'{value}': a joker is written 'JK' here.", RuleCode.CARD_MALFORMED)
        stands = parse_tile(text[3:])
        if stands == JOKER:
            raise CardError(
                f"'{value}': a joker stands for a numbered tile, e.g. 'JK:R7'.", RuleCode.CARD_MALFORMED
            )
        return JOKER_PREFIX + stands
    if text in _TILE_SET:
        return text
    raise CardError(
        f"'{value}' is not a tile: use a colour {'/'.join(TILE_COLOURS)} then a number 1-13 (e.g. 'R7'), or 'JK'."
    )


def build_tiles(jokers: int = 2) -> tuple[str, ...]:
    """Board Rummy's unshuffled tiles: two of each numbered tile plus ``jokers`` jokers."""
    if jokers < 0:
        raise ValueError("The number of jokers cannot be negative.")
    return NATURAL_TILES * 2 + (JOKER,) * jokers

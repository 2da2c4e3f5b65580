"""Shuffling, the deal commitment, dealing order and the dealer's seat (docs/rules.md "Deal", docs/rules.md
"Game"), for every family.

A round commits to its deck before the first move: ``deal_commitment`` is the SHA-256 of a secret salt
and the deck order, both revealed when the round ends (``verify_deal``). Deals use the operating
system's CSPRNG; a ``seed`` (tests and simulations only) makes the deck and the salt reproducible.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass


def deal_commitment(deck: Sequence[str], salt: str) -> str:
    """Lower-case hex SHA-256 of the UTF-8 text ``salt + "|" + ",".join(deck)`` (deck top first).

    docs/rules.md states this formula so that a client can check a revealed deal on its own.
    """
    return hashlib.sha256(f"{salt}|{','.join(deck)}".encode()).hexdigest()


def verify_deal(commitment: str, deck: Sequence[str], salt: str) -> bool:
    """True when ``deck`` (top first) and ``salt`` are those the round committed to; False for junk."""
    if not isinstance(commitment, str) or not isinstance(salt, str):
        return False
    cards = list(deck)
    if not all(isinstance(c, str) for c in cards):
        return False
    expected = deal_commitment(cards, salt)
    return secrets.compare_digest(commitment.encode("utf-8"), expected.encode("ascii"))


def shuffled(deck: Sequence[str], seed: int | None) -> tuple[str, ...]:
    """``deck`` shuffled by the CSPRNG, or reproducibly from ``seed``."""
    order = list(deck)
    (random.Random(seed) if seed is not None else secrets.SystemRandom()).shuffle(order)
    return tuple(order)


def derived_shuffle(cards: Sequence[str], salt: str, label: str) -> tuple[str, ...]:
    """``cards`` shuffled by randomness derived from the round's secret ``salt`` (docs/rules.md "Deal": a
    reshuffled restock), so that a round replays exactly from its deal and moves; ``label`` tells the uses
    apart."""
    order = list(cards)
    random.Random(f"{label}:{salt}").shuffle(order)
    return tuple(order)


def new_salt(seed: int | None) -> str:
    """The secret salt of a deal commitment (derived from ``seed`` when one is given)."""
    if seed is not None:
        return f"{random.Random(f'salt:{seed}').getrandbits(128):032x}"
    return secrets.token_hex(16)


def deal_round_robin(order: Sequence[str], n: int, dealer: int, each: int) -> list[list[str]]:
    """``each`` cards to every seat, one at a time clockwise from the dealer's left (the top first)."""
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(n * each):
        hands[(dealer + 1 + i) % n].append(order[i])
    return hands


@dataclass(frozen=True)
class DealShape:
    """How a family lays out a deal (its ``deal`` follows it): ``each`` cards to every seat one at a time
    clockwise from the dealer's left, ``starter_extra`` more to the first player (Wrotham's eighth card, Board
    Rummy's fifteenth tile), then ``turned`` cards turned up (the up-card, Board Rummy's trump); the rest is the
    stock."""

    each: int
    starter_extra: int = 0
    turned: int = 0

    def dealt(self, n_players: int) -> int:
        """How many cards the deal takes from the top of the deck."""
        return n_players * self.each + self.starter_extra + self.turned


def naturals_first(unused: list[str]) -> list[str]:
    """The default order of a stacked deck's unnamed cards: the unshuffled deck's, jokers last."""
    return [c for c in unused if c != "JK"] + [c for c in unused if c == "JK"]


def stacked_deck(
    shape: DealShape,
    full: Sequence[str],
    hands: Sequence[Sequence[str]],
    *,
    dealer: int,
    up: str | None = None,
    stock: Sequence[str] = (),
    fillers: Callable[[list[str]], list[str]] = naturals_first,
) -> list[str]:
    """A deck (top first) that deals ``hands[seat]`` to each seat, turns ``up`` (when the shape turns a card)
    and puts ``stock`` on top of the rest: the one builder of the tests' scenarios, the how-to-play pages and
    the demo. ``full`` is the unshuffled deck; a hand shorter than the deal gives it, and every unnamed card,
    in the order ``fillers`` puts the unused cards in. ``ValueError`` names a card the deck does not hold (or
    holds too few of), or a hand longer than its seat is dealt."""
    n = len(hands)
    pool = list(full)

    def take(card: str) -> str:
        try:
            pool.remove(card)
        except ValueError:
            raise ValueError(f"The deck holds no more {card!r} to stack.") from None
        return card

    named = [[take(c) for c in hand] for hand in hands]
    turned = take(up) if up else None
    top = [take(c) for c in stock]
    fill = fillers(pool)
    starter = (dealer + 1) % n
    filled = []
    for seat, hand in enumerate(named):
        size = shape.each + (shape.starter_extra if seat == starter else 0)
        if len(hand) > size:
            raise ValueError(f"Seat {seat} is dealt {size} cards, not {len(hand)}.")
        filled.append(hand + [fill.pop(0) for _ in range(size - len(hand))])
    deck = [filled[(dealer + 1 + i) % n][i // n] for i in range(n * shape.each)]
    deck += filled[starter][shape.each :]
    if shape.turned:
        deck.append(turned if turned is not None else fill.pop(0))
    elif turned is not None:
        raise ValueError("This game turns no card up after the deal.")
    return deck + top + fill


# ---------------------------------------------------------------------- the dealer's seat


def draw_first_dealer(seats: Sequence[int]) -> int:
    """The first dealer of a table's game, drawn with the CSPRNG among the occupied ``seats``."""
    if not seats:
        raise ValueError("Nobody is seated.")
    return seats[secrets.randbelow(len(seats))]


def next_dealer(previous: int | None, seats: Sequence[int], *, redeal: bool = False) -> int:
    """The dealer of the next round: the next occupied seat clockwise after ``previous``.

    ``seats`` are the seat numbers playing the next round (any order; clockwise is ascending, wrapping
    around). With no previous round (``previous`` None) the first dealer is drawn at random. After a
    refused deal (``redeal``, Board Rummy) the same dealer deals again when still seated. A previous
    dealer who has left is skipped: the deal goes to the next seat after theirs.
    """
    ring = sorted(set(seats))
    if not ring:
        raise ValueError("Nobody is seated.")
    if previous is None:
        return draw_first_dealer(ring)
    if redeal and previous in ring:
        return previous
    later = [s for s in ring if s > previous]
    return later[0] if later else ring[0]

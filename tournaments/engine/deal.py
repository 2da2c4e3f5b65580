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
from collections.abc import Sequence


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

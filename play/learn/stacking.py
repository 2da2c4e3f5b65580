"""Stacked decks for the how-to-play scripts: name each player's hand (and the up-card, the trump tile, the top of
the stock); every other card is filled in, in the unshuffled deck's order, so a script always deals the same round.

The order a deck is dealt in is the engine's (docs/rules.md "Deal", Wrotham's eighth card, Board Rummy's 15th tile
and trump). The builder checks the dealt hands against the named ones, so a mistake here cannot slip through."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.engine import Ruleset, full_deck


def stacked_deck(
    rules: Ruleset,
    hands: Sequence[Sequence[str]],
    *,
    dealer: int,
    up: str | None = None,
    stock: Sequence[str] = (),
) -> list[str]:
    """A deck (top first) dealing ``hands[seat]`` to each seat, then ``up`` (the up-card, or Board Rummy's trump),
    then ``stock`` on top of the rest. Hands shorter than a deal are filled with the deck's first unused cards
    (jokers last)."""
    n = len(hands)
    pool = list(full_deck(rules, n))

    def take(card: str) -> str:
        pool.remove(card)  # a ValueError names a card the deck does not hold (or holds too few of)
        return card

    named = [[take(c) for c in hand] for hand in hands]
    turned = take(up) if up else None
    top = [take(c) for c in stock]
    fill = [c for c in pool if c != "JK"] + [c for c in pool if c == "JK"]
    starter = (dealer + 1) % n
    board = rules.family == "board"
    each = 14 if board else rules.cards_each(n)
    extra = 1 if board or getattr(rules, "starter_extra_card", False) else 0
    filled = []
    for seat, hand in enumerate(named):
        hand = list(hand)
        while len(hand) < each + (extra if seat == starter else 0):
            hand.append(fill.pop(0))
        filled.append(hand)
    deck = [filled[(dealer + 1 + i) % n][i // n] for i in range(n * each)]
    if extra:
        deck.append(filled[starter][each])
    if board or rules.up_card:
        deck.append(turned if turned is not None else fill.pop(0))
    return deck + top + fill

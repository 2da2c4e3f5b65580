"""Build stacked decks for scenario tests: name each hand, the up-card and the top of the stock."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.engine import Ruleset, full_deck, new_round
from tournaments.engine.state import RoundState


def stacked_deck(
    rules: Ruleset,
    n: int,
    hands: Sequence[Sequence[str]],
    *,
    dealer: int = 0,
    up: str | None = None,
    stock: Sequence[str] = (),
) -> list[str]:
    """A deck (top first) dealing ``hands[seat]`` to each seat; unnamed cards are filled in."""
    pool = list(full_deck(rules, n))
    each = rules.cards_each(n)

    def take(card: str) -> str:
        pool.remove(card)
        return card

    named = [[take(c) for c in h] for h in hands]
    up_card = take(up) if up else None
    top = [take(c) for c in stock]
    fill = [c for c in pool if c != "JK"] + [c for c in pool if c == "JK"]  # fillers: naturals first
    filled = []
    for h in named:
        h = list(h)
        while len(h) < each:
            h.append(fill.pop(0))
        filled.append(h)
    deck: list[str] = []
    for i in range(n * each):
        seat = (dealer + 1 + i) % n
        deck.append(filled[seat][i // n])
    deck.append(up_card if up_card is not None else fill.pop(0))
    deck.extend(top)
    deck.extend(fill)
    return deck


def stacked_round(
    rules: Ruleset,
    hands: Sequence[Sequence[str]],
    *,
    players: Sequence[str] | None = None,
    dealer: int = 0,
    up: str | None = None,
    stock: Sequence[str] = (),
) -> RoundState:
    players = list(players or ["ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal"][: len(hands)])
    deck = stacked_deck(rules, len(players), hands, dealer=dealer, up=up, stock=stock)
    return new_round(rules, players, dealer, deck=deck)

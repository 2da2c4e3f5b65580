"""Stacked Board Rummy deals for scenario tests: name each board, the trump tile and the stock's top."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournaments.engine import Ruleset, apply_move, full_deck, new_round
from tournaments.engine.cards import NATURAL_TILES
from tournaments.engine.state import RoundState

BOARD = Ruleset.preset("board")
NAMES = ["ann", "bob", "cid", "dan"]


def board_deck(
    hands: Sequence[Sequence[str]],
    *,
    dealer: int = 0,
    trump: str | None = None,
    stock: Sequence[str] = (),
    rules: Ruleset = BOARD,
) -> list[str]:
    """A deck (top first) dealing ``hands[seat]`` (the first player, left of the dealer, gets 15 tiles,
    the others 14; unnamed tiles are filled in, no two alike where avoidable), then ``trump``, then
    ``stock`` on top of the rest (jokers last)."""
    n = len(hands)
    pool = list(full_deck(rules, n))

    def take(t: str) -> str:
        pool.remove(t)
        return t

    named = [[take(t) for t in h] for h in hands]
    turned = take(trump) if trump else None
    top = [take(t) for t in stock]
    # Fillers seven places apart in tile order, first copies before second ones: they make no pair and
    # hardly any combination among themselves.
    spread = sorted(NATURAL_TILES, key=lambda t: (NATURAL_TILES.index(t) * 7) % 52)
    fill = [t for t in spread if t in pool]
    fill += [t for t in spread if pool.count(t) == 2] + [t for t in pool if t == "JK"]
    first = (dealer + 1) % n
    filled = []
    for seat, h in enumerate(named):
        h = list(h)
        while len(h) < (15 if seat == first else 14):
            h.append(fill.pop(0))
        filled.append(h)
    deck = [filled[(dealer + 1 + i) % n][i // n] for i in range(14 * n)]
    deck.append(filled[first][14])
    deck.append(turned if turned is not None else fill.pop(0))
    return deck + top + fill


def board_round(
    hands: Sequence[Sequence[str]],
    *,
    dealer: int | None = None,
    trump: str | None = None,
    stock: Sequence[str] = (),
    rules: Ruleset = BOARD,
) -> RoundState:
    """The round of ``board_deck``; the dealer defaults to the last seat, so ``hands[0]`` (ann) opens."""
    dealer = len(hands) - 1 if dealer is None else dealer
    deck = board_deck(hands, dealer=dealer, trump=trump, stock=stock, rules=rules)
    return new_round(rules, NAMES[: len(hands)], dealer=dealer, deck=deck)


def play(state: RoundState, *moves: tuple[str, Mapping[str, Any]]) -> RoundState:
    for player, move in moves:
        state = apply_move(state, player, move)
    return state


STOCK: dict[str, Any] = {"type": "draw", "source": "stock"}
PILE: dict[str, Any] = {"type": "draw", "source": "discard"}


def disc(t: str) -> dict[str, Any]:
    return {"type": "discard", "card": t}


def close(t: str, groups: list[list[str]] | None = None) -> dict[str, Any]:
    return {"type": "close", "discard": t} | ({} if groups is None else {"groups": groups})

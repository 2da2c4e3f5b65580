"""Stacked Board Rummy deals for scenario tests: name each board, the trump tile and the stock's top."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tournaments.engine import Ruleset, apply_move, new_round, stacked_deck
from tournaments.engine.cards import NATURAL_TILES
from tournaments.engine.state import RoundState

BOARD = Ruleset.preset("board")
NAMES = ["ann", "bob", "cid", "dan"]


def spread_fillers(unused: list[str]) -> list[str]:
    """Board Rummy's unnamed tiles seven places apart in tile order, first copies before second ones, jokers
    last: they make no pair and hardly any combination among themselves."""
    spread = sorted(NATURAL_TILES, key=lambda t: (NATURAL_TILES.index(t) * 7) % 52)
    fill = [t for t in spread if t in unused]
    return fill + [t for t in spread if unused.count(t) == 2] + [t for t in unused if t == "JK"]


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
    return stacked_deck(rules, hands, dealer=dealer, up=trump, stock=stock, fillers=spread_fillers)


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

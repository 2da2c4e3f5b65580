"""A game: a sequence of rounds at one table (dealer rotation, cumulative scores, end condition).

``add_round`` and ``game_over`` are the one rule for a game's totals and its end, and
``deal.next_dealer`` the one rule for the dealer's seat; ``Game`` is built on them, and so should be
any other keeper of a game (the app's tables).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .deal import draw_first_dealer, next_dealer
from .engine import apply_move, close_claims, new_round
from .moves import Move
from .rules import Ruleset
from .state import Result, RoundState, state_from_dict, state_to_dict


@dataclass(frozen=True)
class RoundRecord:
    """A finished round as the game remembers it."""

    number: int
    dealer: int
    result: Result


@dataclass(frozen=True)
class Game:
    """Rounds at one table. ``current`` is the running (or just finished) round."""

    rules: Ruleset
    players: tuple[str, ...]
    first_dealer: int
    totals: tuple[int, ...]
    history: tuple[RoundRecord, ...]
    current: RoundState | None
    over: bool = False

    @property
    def scores(self) -> dict[str, int]:
        return dict(zip(self.players, self.totals, strict=True))

    @property
    def winners(self) -> tuple[str, ...]:
        """The players with the highest total once the game is over (several on a tie); the lowest
        under penalty scoring (``rules.lowest_wins``)."""
        if not self.over:
            return ()
        top = min(self.totals) if self.rules.lowest_wins else max(self.totals)
        return tuple(p for p, t in zip(self.players, self.totals, strict=True) if t == top)

    @property
    def next_dealer(self) -> int:
        if self.current is None:
            return self.first_dealer
        redeal = self.current.result is not None and self.current.result.redeal
        return next_dealer(self.current.dealer, range(len(self.players)), redeal=redeal)


def add_round(totals: Mapping[str, int], result: Result) -> dict[str, int]:
    """A game's totals after a finished round: each player adds the round's ``game_points``."""
    return {**totals, **{p: totals.get(p, 0) + points for p, points in result.game_points.items()}}


def game_over(rules: Ruleset, totals: Mapping[str, int], rounds_played: int) -> bool:
    """Whether a game ends after this round: someone reached ``target_score``, or ``rounds`` were played.

    Under penalty scoring (``lowest_wins``) the totals are penalties, so reaching the target ends the game
    too (003: "when someone reaches 100"), and the lowest total wins (``Game.winners``)."""
    return (rules.target_score is not None and max(totals.values(), default=0) >= rules.target_score) or (
        rules.rounds is not None and rounds_played >= rules.rounds
    )


def new_game(
    rules: Ruleset,
    players: Sequence[str],
    *,
    first_dealer: int | None = None,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
) -> Game:
    """Draw the first dealer at random (CSPRNG) unless given, and deal round 1."""
    players = tuple(players)
    dealer = draw_first_dealer(range(len(players))) if first_dealer is None else first_dealer
    state = new_round(rules, players, dealer, 1, seed=seed, deck=deck)
    return Game(rules, players, dealer, (0,) * len(players), (), state)


def _record(game: Game, state: RoundState) -> Game:
    game = replace(game, current=state)
    if state.result is None:
        return game
    added = add_round(game.scores, state.result)
    totals = tuple(added[p] for p in game.players)
    history = (*game.history, RoundRecord(state.round_number, state.dealer, state.result))
    over = game_over(game.rules, added, len(history))
    return replace(game, totals=totals, history=history, over=over)


def game_apply(game: Game, player: str, move: Move | Mapping[str, Any]) -> Game:
    """Apply a move to the running round and book its result when it ends."""
    if game.current is None or game.current.result is not None:
        raise ValueError("No round is running: call next_round.")
    return _record(game, apply_move(game.current, player, move))


def game_close_claims(game: Game) -> Game:
    """``close_claims`` on the running round."""
    if game.current is None or game.current.result is not None:
        return game
    return _record(game, close_claims(game.current))


def next_round(game: Game, *, seed: int | None = None, deck: Sequence[str] | None = None) -> Game:
    """Deal the next round; the deal passes to the next seat clockwise."""
    if game.over:
        raise ValueError("The game is over.")
    if game.current is not None and game.current.result is None:
        raise ValueError("The current round is still running.")
    number = len(game.history) + 1
    state = new_round(game.rules, game.players, game.next_dealer, number, seed=seed, deck=deck)
    return replace(game, current=state)


def game_to_dict(game: Game) -> dict[str, Any]:
    """JSON-ready form of a game (hidden information of the running round included)."""
    return {
        "rules": game.rules.to_dict(),
        "players": list(game.players),
        "first_dealer": game.first_dealer,
        "totals": list(game.totals),
        "history": [
            {"number": r.number, "dealer": r.dealer, "result": r.result.to_dict()} for r in game.history
        ],
        "current": None if game.current is None else state_to_dict(game.current),
        "over": game.over,
    }


def game_from_dict(data: Mapping[str, Any]) -> Game:
    """Inverse of ``game_to_dict``."""
    return Game(
        rules=Ruleset.from_dict(data["rules"]),
        players=tuple(data["players"]),
        first_dealer=int(data["first_dealer"]),
        totals=tuple(int(t) for t in data["totals"]),
        history=tuple(
            RoundRecord(int(r["number"]), int(r["dealer"]), Result.from_dict(r["result"]))
            for r in data["history"]
        ),
        current=None if data["current"] is None else state_from_dict(data["current"]),
        over=bool(data["over"]),
    )

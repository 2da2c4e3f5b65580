"""A finished round replayed step by step (docs/api.md "Replays"): a pure function of plain values (the round's
ruleset, players, dealer, revealed deck and salt, and its log of moves) that rebuilds every state with the
engine and answers what a viewer was shown at each step.

No Django here: `round_history` reads the rows, calls `replay_round` and checks its outcome against what the
round recorded (the deal commitment, the result). It adds no rule of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments import engine
from tournaments.engine import IllegalMove, RoundState, Ruleset

# A step where the server closed a "Rummy!" claim window at its deadline (`clock_runs.run_close_claims`, the
# game's `claims_closed` event): it has no player. The engine's own replay logs it the same way.
CLOSE_CLAIMS: dict[str, Any] = {"type": "close_claims"}


@dataclass(frozen=True)
class LoggedStep:
    """One change of a round after its deal: a player's move (the `MoveLog` row's), or the server closing a
    claim window (`player` None, `move` `CLOSE_CLAIMS`)."""

    player: str | None
    move: Mapping[str, Any]


@dataclass(frozen=True)
class Replay:
    """`steps`: [{move, player, view}], the deal first (move and player None). `commitment`: the deal's, as
    the engine computes it from the deck and salt. `result`: the final state's result as a round stores it
    (`results.result_dict`), None when the moves did not end the round."""

    steps: list[dict[str, Any]]
    commitment: str
    result: dict[str, Any] | None


class ReplayError(Exception):
    """The record does not replay: a ruleset, deck or move the engine refuses (`reason` says which)."""

    def __init__(self, reason: str, *, step: int | None = None) -> None:
        super().__init__(reason if step is None else f"step {step}: {reason}")
        self.reason = reason
        self.step = step


def replay_round(
    *,
    rules: Mapping[str, Any],
    players: Sequence[str],
    dealer: int,
    deck: Sequence[str],
    salt: str,
    round_number: int,
    moves: Iterable[LoggedStep],
    viewer: str | None,
    seats: Mapping[str, int] | None = None,
) -> Replay:
    """The round dealt from `deck` (top first) and `salt`, then every logged step applied in order; each step's
    view is `viewer`'s (None: the spectator view), with each player's `seat` the table's seat number from
    `seats` (as `GET /games/{id}/` shows it) where given. `ReplayError` when the engine refuses the record."""
    try:
        ruleset = Ruleset.from_dict(rules)
        state = engine.new_round(ruleset, players, dealer, round_number, deck=deck, salt=salt)
    except (ValueError, TypeError, KeyError) as exc:  # RulesetError is a ValueError
        raise ReplayError(f"the deal does not replay: {exc}", step=0) from exc
    if viewer is not None and viewer not in state.players:
        raise ValueError(f"{viewer!r} did not play this round")
    seat_of = dict(seats or {})
    steps: list[dict[str, Any]] = [{"move": None, "player": None, "view": _view(state, viewer, seat_of)}]
    for number, logged in enumerate(moves, start=1):
        state = _apply(state, logged, number)
        steps.append(
            {"move": dict(logged.move), "player": logged.player, "view": _view(state, viewer, seat_of)}
        )
    ended = state.result
    result = None
    if ended is not None:
        result = ended.to_dict()
        del result["deck"], result["salt"]
    return Replay(steps=steps, commitment=str(state.commitment), result=result)


def _apply(state: RoundState, logged: LoggedStep, number: int) -> RoundState:
    if logged.player is None:
        if dict(logged.move) != CLOSE_CLAIMS:
            raise ReplayError(f"a move without a player: {dict(logged.move)!r}", step=number)
        if state.phase != "claims":
            raise ReplayError("a claim window closed where none was open", step=number)
        return engine.close_claims(state)
    try:
        return engine.apply_move(state, logged.player, logged.move)
    except IllegalMove as exc:
        raise ReplayError(f"{logged.player}'s move is refused: {exc.code}", step=number) from exc


def _view(state: RoundState, viewer: str | None, seats: Mapping[str, int]) -> dict[str, Any]:
    """The engine's view, as the engine part of `GET /games/{id}/` shows it: the table's seat numbers, and no
    legal moves (a replay is not played)."""
    view = engine.player_view(state, viewer)
    view.pop("legal_moves", None)
    if state.phase == "deal" and state.may_act:
        # Live, the turn of Board Rummy's deal phase is whose clock runs: the first player still to answer
        # (`clocks.clock_targets`), not the engine's next player, who may have nothing to answer.
        view["turn"] = {**view["turn"], "player": state.may_act[0]}
    for row in view["players"]:
        row["seat"] = seats.get(row["username"], row["seat"])
    return view

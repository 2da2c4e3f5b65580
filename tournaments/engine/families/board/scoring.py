"""Board Rummy's round result (docs/rules.md "Board Rummy"): the closer's hand points, the trump bonus, a
redeal.

``scores``: the closer's hand points, 0 for everyone else (PCR settlement then makes each opponent pay
them); 0 for everyone when nobody closes (the stock ran out, the round stalled) or the deal was refused.
``bonuses``: the trump bonus, 100 points paid by each opponent to the player dealt the trump tile's twin,
settled on its own whether or not anyone closes; none after a refused deal, which voids the deal.
``game_points``: ``scores`` with the trump bonus added to its player as 100 per opponent (docs/rules.md "Board
Rummy": it is paid by each opponent), so 100 with two players, 200 with three, 300 with four. The bonus entry
itself keeps the per-opponent 100 that settlement makes each opponent pay.
"""

from __future__ import annotations

from typing import Any

from ...cards import JOKER
from ...state import Result, RoundState, make_result
from .arrangement import find_arrangement
from .book import thrown, trump, trump_seat
from .hands import TIER_NAMES, classify
from .presets import TRUMP_BONUS


def score(state: RoundState, reason: str, seat: int | None) -> Result:
    """``reason``: ``close`` (``seat`` closed: its 14 tiles are its hand, its discard tops the pile),
    ``refused`` (``seat`` refused the deal), ``stock`` or ``stall``."""
    players = state.players
    scores = dict.fromkeys(players, 0)
    details: dict[str, Any] = {
        "reason": reason,
        "trump": trump(state),
        "thrown": {p: thrown(state, i) for i, p in enumerate(players)},
        "players": {p: {"hand": list(state.hands[i])} for i, p in enumerate(players)},
    }
    redeal = reason == "refused"
    if redeal:
        assert seat is not None
        details["refused_by"] = players[seat]
    if reason == "close":
        assert seat is not None
        reading = find_arrangement(state.hands[seat])
        assert reading is not None  # a close is accepted only on tiles that close
        discard = state.discard[-1]
        hand = classify(reading, closed_with_joker=discard == JOKER, thrown=thrown(state, seat))
        scores[players[seat]] = hand.points
        details |= {
            "closer": players[seat],
            "discard": discard,
            "hand": {
                "row": hand.row,
                "tier": TIER_NAMES[hand.tier],
                "points": hand.points,
                "rows": list(hand.rows),
                "jokers": hand.jokers,
                "closed_with_joker": hand.closed_with_joker,
                "thrown": hand.thrown,
            },
            "arrangement": {"kind": reading.kind, "groups": [list(g) for g in reading.groups]},
        }
    bonuses: list[dict[str, Any]] = []
    twin = trump_seat(state)
    if twin is not None and not redeal:
        bonuses.append({"player": players[twin], "points": TRUMP_BONUS, "reason": "trump"})
    game_points = dict(scores)
    opponents = len(players) - 1
    for b in bonuses:
        game_points[b["player"]] += b["points"] * opponents
    return make_result(
        scores=scores,
        game_points=game_points,
        bonuses=bonuses,
        details=details,
        redeal=redeal,
        deck=state.deck,
        salt=state.salt,
    )

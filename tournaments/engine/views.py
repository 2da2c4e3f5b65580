"""What a player (or a spectator) may see of a round, as JSON-ready dicts.

The envelope (version, phase, players, pile, melds, the deal commitment, the result ...) is the same
for every game; the round's family adds its own fields (``Family.view``).
"""

from __future__ import annotations

from typing import Any

from .families import family_of
from .state import RoundState


def player_view(state: RoundState, player: str | None) -> dict[str, Any]:
    """The game view of docs/api.md "Playing" for ``player`` (None: a spectator).

    Never holds another player's hand, the stock's cards, the deck or the salt while the round runs;
    once it is over the result (every hand, the deck and the salt) is public.
    """
    if player is not None and player not in state.players:
        raise ValueError(f"{player!r} does not play in this round.")
    view: dict[str, Any] = {
        "version": state.version,
        "round": state.round_number,
        "game": state.rules.name,
        "phase": state.phase,
        "dealer": state.players[state.dealer],
        "turn": {"player": state.to_act},
        "may_act": list(state.may_act),
        "players": [
            {"username": p, "seat": i, "hand_count": len(state.hands[i])} for i, p in enumerate(state.players)
        ],
        "discard_pile": list(state.discard),
        "stock_count": len(state.stock),
        "melds": [
            {"id": m.id, "owner": m.owner, "cards": list(m.cards), "placers": list(m.placers)}
            for m in state.melds
        ],
        "deal_commitment": state.commitment,
        "claims": None
        if state.claims is None
        else {
            "discarder": state.claims.discarder,
            "acted": list(state.claims.acted),
            "pending": list(state.may_act),
        },
        "stall": state.stall,
    }
    if player is not None:
        view["hand"] = list(state.hand_of(player))
    view.update(family_of(state.rules).view(state, player))
    if state.result is not None:
        view["result"] = state.result.to_dict()
        view["scores"] = dict(state.result.scores)
    return view


def spectator_view(state: RoundState) -> dict[str, Any]:
    """``player_view`` for nobody in particular (staff, spectators)."""
    return player_view(state, None)


def round_record(state: RoundState) -> dict[str, Any]:
    """The full post-round record (deal, salt, moves, result); refused while the round runs."""
    if state.result is None:
        raise ValueError("The round is not over: its deck and salt stay secret.")
    return {
        "game": state.rules.to_dict(),
        "players": list(state.players),
        "dealer": state.dealer,
        "round": state.round_number,
        "deal_commitment": state.commitment,
        "deck": list(state.deck),
        "salt": state.salt,
        "moves": [[p, m] for p, m in state.moves],
        "result": state.result.to_dict(),
    }

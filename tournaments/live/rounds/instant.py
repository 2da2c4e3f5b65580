"""Instant rounds, for simulations and benchmarks (`Tournament.instant_rounds`, never a real tournament): a round
is dealt as usual (players, stacks, dealer, the deal's commitment) and then ended at once with a result drawn at
random, which goes through the same round end as a played round (`round_end.settle_result`): settled by PCR
through the ledger, the `round_over` event, the policy's next step."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

MIN_SCORE = -50
MAX_SCORE = 150
MAX_MELDED = 150


def instant_result(players: Sequence[str], rng: Any = None) -> dict[str, Any]:
    """A drawn result shaped like `results.result_dict`'s: scores in -50..150, a melded-and-built value for
    each player and one who went out (`secrets.SystemRandom()` unless `rng` is given)."""
    rng = rng or secrets.SystemRandom()
    scores = {p: rng.randint(MIN_SCORE, MAX_SCORE) for p in players}
    melded = {p: rng.randint(0, MAX_MELDED) for p in players}
    out = rng.choice(list(players)) if players else None
    return {
        "scores": scores,
        "game_points": dict(scores),
        "bonuses": [],
        "details": {
            "reason": "instant",
            "went_out": out,
            "players": {p: {"placed_value": melded[p]} for p in players},
        },
        "redeal": False,
    }

"""Seeded bot rounds fingerprinted move by move: the engine's answers as a golden file.

Each case (seed, preset, options, players) plays one round with seeded bots and hashes, after every
step, everything the public API answers: ``state_to_dict``, every player's and a spectator's
``player_view``, ``legal_moves`` of every player, the server's ``auto_move`` for whoever may act, the
move played, the ``IllegalMove`` code of a near-miss move, and at the end the result and
``round_record``. ``tests/engine/golden/rounds.json`` holds the hashes the engine gave before it was
split into families (issue 10); ``test_golden.py`` holds every later engine to them.

Regenerate only when an answer is meant to change, and say which in the commit:
``.venv/bin/python -m tests.engine.golden_rounds --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from tournaments.engine import (
    IllegalMove,
    Ruleset,
    apply_move,
    close_claims,
    legal_moves,
    new_round,
    player_view,
    round_record,
    state_to_dict,
)
from tournaments.engine.bots import GreedyBot, RandomBot, auto_move

GOLDEN = Path(__file__).resolve().parent / "golden" / "rounds.json"
NAMES = ("ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal")
# Option variants, so that every switch of the two presets is played somewhere.
VARIANTS: tuple[dict[str, Any], ...] = (
    {},
    {},
    {"round_the_corner": True},
    {"final_discard_required": False},
    {"joker_swap": True, "swapped_joker_must_be_melded": True},
    {"top_discard_must_be_used": True, "ace_high": False},
    {"low_cards_five": True, "stall_turns": 6},
    {"joker_swap": False, "hand_size_two_players": 10},
    {"stall_turns": 2, "rounds": 3, "target_score": None},
)
HOUSE_VARIANTS: tuple[dict[str, Any], ...] = (
    *VARIANTS,
    {"rummy_in_the_pile": True},
    {"rummy_calls": False},
    {"top_discard_must_be_used": False},
)
MAX_STEPS = 3000


def cases() -> list[tuple[int, str, dict[str, Any], int]]:
    """200 cases: (seed, preset, options, players); rummy500 2-4 players, household 2-8."""
    out: list[tuple[int, str, dict[str, Any], int]] = []
    for seed in range(200):
        if seed % 2 == 0:
            out.append((seed, "rummy500", VARIANTS[(seed // 2) % len(VARIANTS)], 2 + (seed // 2) % 3))
        else:
            variant = HOUSE_VARIANTS[(seed // 2) % len(HOUSE_VARIANTS)]
            out.append((seed, "rummy500_household", variant, 2 + (seed // 2) % 7))
    return out


def _key(seed: int, preset: str, options: dict[str, Any], n: int) -> str:
    return f"{seed}:{preset}:{json.dumps(options, sort_keys=True)}:{n}"


def _dump(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str).encode()


def _near_miss(rng: random.Random, state: Any, player: str) -> dict[str, Any]:
    """A move that is often illegal (or malformed), to fingerprint the refusal codes too."""
    hand = list(state.hand_of(player))
    cards = [*hand, "JK", "7H", "QS", "1X"]
    kind = rng.randrange(7)
    if kind == 0:
        return {"type": "discard", "card": rng.choice(cards)}
    if kind == 1:
        return {"type": "meld", "cards": rng.sample(cards, min(3, len(cards)))}
    if kind == 2:
        return {"type": "draw", "source": rng.choice(["stock", "discard", "pile"])}
    if kind == 3:
        mid = f"m{rng.randrange(1, 4)}"
        return {"type": "lay_off", "meld": mid, "cards": [rng.choice(cards)]}
    if kind == 4:
        return {"type": "swap_joker", "meld": f"m{rng.randrange(1, 3)}", "card": rng.choice(cards)}
    if kind == 5:
        return {"type": rng.choice(["end_round", "pass_claim", "close", "keep_deal"])}
    return {"type": "call_rummy", "card": rng.choice(cards), "index": rng.randrange(-1, 4), "meld": "m1"}


def fingerprint(seed: int, preset: str, options: dict[str, Any], n: int) -> str:
    """The SHA-256 of everything the engine answered while one seeded round was played."""
    rules = Ruleset.preset(preset, **options)
    players = list(NAMES[:n])
    digest = hashlib.sha256()
    digest.update(_dump([rules.to_dict(), rules.option_values()]))
    state = new_round(rules, players, dealer=seed % n, round_number=1 + seed % 3, seed=seed)
    rng = random.Random(f"golden:{seed}")
    # One seat in four is greedy (the solver's path); the others play uniformly at random.
    bots = {
        p: (GreedyBot() if (i + seed) % 4 == 0 else RandomBot(seed * 10 + i)) for i, p in enumerate(players)
    }
    for _step in range(MAX_STEPS):
        digest.update(_dump(state_to_dict(state)))
        digest.update(_dump([player_view(state, p) for p in [*players, None]]))
        digest.update(_dump([legal_moves(state, p) for p in players]))
        if state.phase == "over":
            break
        acting = state.may_act
        digest.update(_dump([auto_move(state, p) for p in acting]))
        if state.phase == "claims" and (not acting or rng.random() < 0.2):
            state = close_claims(state)
            continue
        player = acting[0]
        probe = _near_miss(rng, state, player)
        try:
            after = apply_move(state, player, probe)
            digest.update(_dump(["ok", after.version, after.phase]))
        except IllegalMove as exc:
            digest.update(_dump([exc.code, exc.http_status]))
        move = bots[player].choose(state, player)
        digest.update(_dump([player, move]))
        state = apply_move(state, player, move)
    else:
        raise RuntimeError(f"case {seed} did not end within {MAX_STEPS} steps")
    digest.update(_dump(round_record(state)))
    return digest.hexdigest()


def compute() -> dict[str, str]:
    return {_key(*case): fingerprint(*case) for case in cases()}


def main(argv: list[str]) -> int:
    if argv[1:] != ["--write"]:
        print("usage: python -m tests.engine.golden_rounds --write", file=sys.stderr)
        return 2
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(compute(), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

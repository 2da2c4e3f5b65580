"""Turn-completion check (``turn.feasible``, docs/rules.md "Turn-completion invariant"): its cost on the
positions real play asks about, and what it judges against the search it replaced, which stopped three
placements deep.

The positions are every call the engine makes while random bots play Rummy 500 rounds (must-meld swaps on
and off): recorded once, then each is judged by the current check and by ``three_deep`` (a copy of the old
search, kept here only as the reference) in the same process. Deep positions are built as in
tests/engine/test_turn_completion.py: jokers retrieved and owed, the chosen card usable only by a swap.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable

import tournaments.engine.listing as listing_module
import tournaments.engine.placements as placements_module
import tournaments.engine.turn as turn_module
from tournaments.engine import Ruleset, new_round
from tournaments.engine.bots import RandomBot, play_round
from tournaments.engine.cards import JOKER, sort_cards
from tournaments.engine.rules import Ruleset as RulesetType
from tournaments.engine.state import Meld
from tournaments.engine.turn import Turn, can_end, feasible, placements_with

# The modules that call the check (by their own name for it); Rummy 500's ``draw`` module is shadowed in its
# package by the function of that name, hence import_module.
_CALLERS = (
    placements_module,
    listing_module,
    importlib.import_module("tournaments.engine.families.rummy500.draw"),
)


def three_deep(t: Turn, rules: RulesetType, depth: int = 3) -> bool:
    """The search before: obligations followed at most three placements deep, nothing remembered."""
    if can_end(t, rules):
        return True
    if depth == 0:
        return False
    targets: list[str] = []
    if t.must_use is not None:
        targets.append(t.must_use)
    if t.jokers_to_meld:
        targets.append(JOKER)
    if not targets:
        if rules.final_discard_required or not t.hand:
            return False
        targets = sorted(set(t.reserved) & set(t.hand))
    for target in targets:
        for placement in placements_with(t, target, rules):
            nxt = placement.after
            if rules.final_discard_required and not nxt.hand:
                continue
            if three_deep(nxt, rules, depth - 1):
                return True
    return False


def record_positions(rounds: int) -> list[tuple[Turn, RulesetType]]:
    """Every (position, rules) the engine judges while random bots play ``rounds`` rounds of each ruleset."""
    seen: list[tuple[Turn, RulesetType]] = []

    def spy(t: Turn, rules: RulesetType) -> bool:
        seen.append((t, rules))
        return feasible(t, rules)

    saved = [c.feasible for c in _CALLERS]
    for c in _CALLERS:
        c.feasible = spy  # type: ignore[attr-defined]
    try:
        for rules in (
            Ruleset.preset("rummy500"),
            Ruleset.preset("rummy500", swapped_joker_must_be_melded=True),
        ):
            for seed in range(rounds):
                state = new_round(rules, ["a", "b", "c", "d"], dealer=seed % 4, seed=seed)
                play_round(state, {p: RandomBot(seed * 10 + i) for i, p in enumerate("abcd")})
    finally:
        for c, f in zip(_CALLERS, saved, strict=True):
            c.feasible = f  # type: ignore[attr-defined]
    return seen


def deep_positions() -> list[tuple[Turn, RulesetType, int]]:
    """(position, rules, placements needed) for 1-3 owed jokers and the chosen 7H usable only by a swap."""
    rules = Ruleset.preset("rummy500", swapped_joker_must_be_melded=True)

    def meld(i: int, *cards: str) -> Meld:
        return Meld(f"m{i}", "a", cards, ("a",) * len(cards))

    out = []
    for held in (1, 2, 3):
        sets = [("4S", "4H", "4D"), ("8S", "8H", "8D"), ("QS", "QH", "QD")][:held]
        melds = (meld(1, "7S", "JK:7H", "7D"), *(meld(i + 2, *s) for i, s in enumerate(sets)))
        hand = sort_cards(["7H", "2C", *[JOKER] * held])
        out.append((Turn(hand, melds, "7H", ("7H", *[JOKER] * held), held), rules, held + 2))
    return out


def _time(fn: Callable[[Turn, RulesetType], bool], positions: list[tuple[Turn, RulesetType]]) -> list[float]:
    out = []
    for t, rules in positions:
        c0 = time.thread_time()
        fn(t, rules)
        out.append(time.thread_time() - c0)
    return out


def _pct(data: list[float], q: float) -> float:
    ordered = sorted(data)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def bench_turn(rounds: int) -> list[str]:
    positions = record_positions(rounds)
    # The current check remembers nothing between calls, so timing it after the recording is fair.
    rows: list[tuple[str, list[float]]] = [
        ("current (no depth cut, memoised)", _time(turn_module.feasible, positions)),
        ("three placements deep (before)", _time(three_deep, positions)),
    ]
    differ = sum(1 for t, r in positions if turn_module.feasible(t, r) != three_deep(t, r))
    lines = [
        "| check | positions | p50 ms | p99 ms | max ms | total ms |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, times in rows:
        lines.append(
            f"| {name} | {len(times)} | {_pct(times, 0.5):.4f} | {_pct(times, 0.99):.4f} "
            f"| {max(times) * 1000:.3f} | {sum(times) * 1000:.1f} |"
        )
    deep = deep_positions()
    judged: list[str] = []
    for t, rules, needed in deep:
        c0 = time.thread_time()
        now = turn_module.feasible(t, rules)
        ms = (time.thread_time() - c0) * 1000
        judged.append(f"{needed} placements: {now} ({ms:.2f} ms; before: {three_deep(t, rules)})")
    lines += [
        "",
        f"Positions: every call of the check while random bots played {rounds} four-player Rummy 500 rounds, "
        f"`swapped_joker_must_be_melded` off and on; both checks judged them alike but {differ}. Deep positions "
        "(jokers owed, the chosen card usable only by a swap; completable): " + "; ".join(judged) + ".",
    ]
    return lines


def _main() -> None:
    print("\n".join(bench_turn(20)))


if __name__ == "__main__":
    _main()

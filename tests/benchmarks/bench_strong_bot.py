"""StrongBot against GreedyBot: duplicate two-player deals of every preset, and the time each takes per move.

Each seed is dealt twice with the same deck and dealer, the strong bot in seat 0 and then in seat 1, so
that the luck of the deal cancels out. A win is a better settlement score (``result.scores``; the lower
one where the ruleset's ``lowest_wins``); the margin is the strong bot's score minus the greedy bot's,
averaged over the rounds. Times are the thread's CPU time inside each bot's ``choose``.

Run with ``make bench-strong`` (``.venv/bin/python -m tests.benchmarks.bench_strong_bot``). Prints a markdown
report and writes it into the "Bots" section of docs/performance.md (``--no-write``
to skip, ``--quick`` for a smoke run that does not touch the docs).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tournaments.engine import Ruleset, new_round
from tournaments.engine.bots import GreedyBot, play_round
from tournaments.engine.rules import implemented_presets
from tournaments.engine.state import RoundState
from tournaments.engine.strong_bot import StrongBot

from . import tiny

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "performance.md"
COMMAND = "make bench-strong   # .venv/bin/python -m tests.benchmarks.bench_strong_bot"
START = "<!-- bench-strong: start -->"
END = "<!-- bench-strong: end -->"
# The bar: the strong bot wins more than this share of Rummy 500 rounds against the greedy bot.
RUMMY500_GOAL = 0.55
MOVE_MS_GOAL = 100.0


class Timed:
    """A bot whose ``choose`` calls are timed (CPU time of this thread)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.cpu = 0.0
        self.worst = 0.0
        self.moves = 0

    def choose(self, state: RoundState, player: str) -> Any:
        t = time.thread_time()
        move = self.bot.choose(state, player)
        spent = time.thread_time() - t
        self.cpu += spent
        self.worst = max(self.worst, spent)
        self.moves += 1
        return move


@dataclass
class Row:
    preset: str
    rounds: int
    wins: int
    ties: int
    losses: int
    margin: float
    strong_ms: float
    greedy_ms: float
    strong_worst_ms: float
    greedy_worst_ms: float

    @property
    def share(self) -> float:
        return self.wins / self.rounds


def match(preset: str, seeds: int) -> Row:
    rules = Ruleset.preset(preset)
    strong, greedy = Timed(None), Timed(None)
    wins = ties = losses = 0
    margin = 0
    for seed in range(seeds):
        number = 1 + seed % 6 if preset == "wrotham" else 1
        for seat in (0, 1):
            names = ["p0", "p1"]
            state = new_round(rules, names, dealer=seed % 2, round_number=number, seed=seed)
            me, other = names[seat], names[1 - seat]
            strong.bot, greedy.bot = StrongBot(seed), GreedyBot()
            end = play_round(state, {me: strong, other: greedy})
            assert end.result is not None
            mine, theirs = end.result.scores[me], end.result.scores[other]
            if rules.lowest_wins:
                mine, theirs = -mine, -theirs
            wins += mine > theirs
            ties += mine == theirs
            losses += mine < theirs
            margin += mine - theirs
    rounds = 2 * seeds
    return Row(
        preset,
        rounds,
        wins,
        ties,
        losses,
        margin / rounds,
        strong.cpu / strong.moves * 1000,
        greedy.cpu / greedy.moves * 1000,
        strong.worst * 1000,
        greedy.worst * 1000,
    )


def report(args: argparse.Namespace) -> str:
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    rows = [match(preset, args.seeds) for preset in args.presets]
    lines = [
        START,
        "## Bots: StrongBot against GreedyBot (two players, duplicate deals)",
        "",
        f"Command: `{COMMAND}`. Measured {started} on {platform.python_implementation()} "
        f"{platform.python_version()}, one thread (load average {load} at the start; times are the thread's "
        f"CPU time in each bot's `choose`). Seeds 0..{args.seeds - 1}, each dealt twice with the seats swapped.",
        "",
        "| preset | rounds | strong wins | ties | greedy wins | mean margin (points) | strong ms / move "
        "| greedy ms / move | ratio | worst move ms (strong / greedy) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.preset} | {r.rounds} | {r.wins} ({r.share:.1%}) | {r.ties} | {r.losses} | {r.margin:+.1f} "
            f"| {r.strong_ms:.3f} | {r.greedy_ms:.3f} | {r.strong_ms / r.greedy_ms:.2f}x | {r.strong_worst_ms:.1f} / {r.greedy_worst_ms:.1f} |"
        )
    r500 = next((r for r in rows if r.preset == "rummy500"), None)
    worst = max(r.strong_worst_ms for r in rows)
    verdict = "met" if r500 is not None and r500.share > RUMMY500_GOAL else "NOT met"
    time_verdict = "met" if max(r.strong_ms for r in rows) < MOVE_MS_GOAL else "NOT met"
    lines += [
        "",
        f"Goal: the strong bot wins more than {RUMMY500_GOAL:.0%} of the Rummy 500 rounds: **{verdict}**; "
        f"its mean time per move stays well under {MOVE_MS_GOAL:g} ms (a practice table's Celery task): "
        f"**{time_verdict}** (the slowest single move of the run: {worst:.1f} ms of CPU; the worst moves are "
        "the solver's and the move listing's rare slow positions, which the greedy bot meets alike). The margin is the strong "
        "bot's round score minus the greedy bot's (settlement scores: Rummy 500 placed minus held; the Basic "
        "family's winner takes the others' penalties; Board Rummy the closer's points). In the Basic family and "
        "Board Rummy the strong bot plays the greedy (Board Rummy: the family's own) moves, so those rows show "
        "what its public-state discipline costs in time, and a share near half of the decided rounds.",
        END,
    ]
    return "\n".join(lines)


def write_section(section: str) -> None:
    """Replace the text between the markers in docs/performance.md (or add it after "## Engine", as a
    section of its own: ``make bench-engine`` rewrites that one whole)."""
    text = DOC.read_text()
    pattern = re.compile(re.escape(START) + r".*?" + re.escape(END), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _m: section, text, count=1)
    else:
        engine_end = re.search(r"^## Engine\n.*?(?=^## )", text, re.S | re.M)
        at = engine_end.end() if engine_end else len(text)
        text = text[:at].rstrip() + "\n\n" + section + "\n\n" + text[at:]
    DOC.write_text(text.rstrip() + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seeds", type=int, default=300, help="deals per preset (each played twice)")
    parser.add_argument("--presets", nargs="*", default=list(implemented_presets()))
    parser.add_argument("--quick", action="store_true", help="10 deals per preset; never writes the docs")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(tiny.argv(argv, ["--no-write", "--seeds", "1"]))
    if args.quick:
        args.seeds, args.no_write = 10, True
    section = report(args)
    print(section)
    if not args.no_write:
        write_section(section)
        print(f"\nwrote the StrongBot part of {DOC.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

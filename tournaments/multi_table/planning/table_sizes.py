"""How many open tables of a multi-table tournament seat how many players (`Tournament.table_sizes`, a histogram
{size: tables}), so that a table's job knows without reading every table whether the seating plan could move
anything (docs/performance.md "Multi-table tournaments"). Pure: plain values in, plain values out.

A table's job plans with this table and the tables waiting for their next deal between rounds
(`multi_balance`). The tables waiting were balanced by the jobs before (no two of them differ by more than one,
and only a job changes a table's size), so only this table's new size can unbalance them: the plan is needed
when this table is more than one player larger than the smallest table or smaller than the largest (either
may be waiting), or when there are more tables than the players need and it is among the smallest. When
none holds, this table is within one player of every table and the job skips the plan, with its query of every
open table's size and the waiting tables' players: at 5,000 tables that query and the plan over every table
were most of a job. (A waiting table that a break could take is then left for a later plan, as a table
mid-round is.) The histogram is kept under the tournament's row lock (the job, which holds it, is the only
writer besides a resync); a histogram whose totals disagree with the tournament's counters (`tables_open`,
`players_left`) is not trusted: the job reads every table and plans, and writes it anew.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from tournaments.multi_table.planning.seating_plan import Plan

Histogram = dict[str, int]  # JSON keys: the size as text


def histogram(sizes: Iterable[int]) -> Histogram:
    counts = Counter(int(size) for size in sizes)
    return {str(size): count for size, count in sorted(counts.items()) if count}


def added(hist: Mapping[str, int], sizes: Iterable[int]) -> Histogram:
    """New tables of `sizes` opened besides those of `hist` (a batched start's batch)."""
    counts = Counter({int(size): int(count) for size, count in hist.items()})
    counts.update(int(size) for size in sizes)
    return {str(size): count for size, count in sorted(counts.items()) if count > 0}


def resized(hist: Mapping[str, int], *, old: int, new: int) -> Histogram:
    """One table's size changed from `old` to `new`."""
    counts = Counter({int(size): int(count) for size, count in hist.items()})
    counts[old] -= 1
    counts[new] += 1
    return {str(size): count for size, count in sorted(counts.items()) if count > 0}


def consistent(hist: Mapping[str, int], *, tables_open: int, players_left: int) -> bool:
    """Do the histogram's totals agree with the tournament's counters (and no count is negative)?"""
    tables = sum(int(count) for count in hist.values())
    players = sum(int(size) * int(count) for size, count in hist.items())
    return (
        all(int(count) > 0 for count in hist.values()) and tables == tables_open and players == players_left
    )


def after_plan(sizes: Mapping[int, int], plan: Plan) -> dict[int, int]:
    """Every open table's size once `plan` is applied (broken tables gone)."""
    after = dict(sizes)
    for move in plan.moves:
        after[move.source] -= 1
        after[move.destination] += 1
    for table in plan.broken:
        after.pop(table, None)
    return after


def plan_needed(
    hist: Mapping[str, int], *, size: int, players_left: int, tables_open: int, seats: int
) -> bool:
    """Could `plan_seating`, with this table (of `size` players, counted in `hist`) between rounds, move one of
    its players, give it one or break it? False only when it certainly cannot: this table is then within one
    player of every other and the planner with it alone between rounds does nothing
    (tests/tournaments/multi_table/planning/test_table_sizes.py checks both); True sends the job to the full plan."""
    if size < 2 or tables_open <= 1:
        return True  # a table that cannot deal (or the last one): let the plan decide
    others = Counter({int(s): int(c) for s, c in hist.items()})
    others[size] -= 1
    if others[size] < 0:
        return True
    smallest = min((s for s, c in others.items() if c > 0), default=None)
    if smallest is None:
        return True
    if size > smallest + 1:
        return True  # it gives players to the smallest table
    if size < max(s for s, c in others.items() if c > 0) - 1:
        return True  # it takes players from the largest table, if that one waits for its deal
    return to_break(hist, size=size, players_left=players_left, tables_open=tables_open, seats=seats)


def to_break(hist: Mapping[str, int], *, size: int, players_left: int, tables_open: int, seats: int) -> bool:
    """With more tables than the players need, is this table (of `size`, counted in `hist`) among those the
    plan breaks when it is between rounds (the smallest `surplus`, ties to the tables between rounds)?"""
    surplus = tables_open - max(1, -(-players_left // seats))
    if surplus <= 0:
        return False
    others = Counter({int(s): int(c) for s, c in hist.items()})
    others[size] -= 1
    # This one is among them if it is as small as the surplus-th smallest of the others (else the planner
    # leaves a mid-round one for later).
    counted = 0
    for candidate in sorted(s for s, c in others.items() if c > 0):
        counted += others[candidate]
        if counted >= surplus:
            return size <= candidate
    return True

"""Table groups of a large multi-table tournament (docs/tournaments.md "Table groups"): which tables form a group,
and when a table's seating plan may read its group only. Pure: plain values in, plain values out.

A group is a run of the tournament's table ids. The whole field is balanced (docs/tournaments.md "Multi-table
tournaments: seating and places": no two tables differ by more than one player) exactly when every open table seats `b` or `b + 1`
players, `b` = players left // tables kept. So a plan within one group keeps the whole field balanced, and moves
as few players as the plan over every table would, when
- the tables to break are the group's: none, or the one table the field has too many is one the group has too
  many too (its players fit one table fewer), and it is as small as any table outside the group;
- every table outside the group already seats `b` or `b + 1` (the tournament's histogram less the group's),
  `b` computed with the tables kept;
- the group's players fit its kept tables within that band: `b * kept <= players <= (b + 1) * kept`.
Then the fewest moves over every table equal the fewest within the group (the broken table's players, then each
table above `b` gives what is above its target, and the `b + 1` targets the group may give out are its players
above `b * kept`: the same count), and after the plan every table of the group seats `b` or `b + 1`
(tests/tournaments/multi_table/planning/test_table_groups_plan.py checks both against `plan_seating`). Otherwise the plan reads every
open table: the groups are rebalanced against each other (a table elsewhere out of the band, or the field's
surplus table spread over several groups)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from tournaments.multi_table.planning.table_sizes import consistent

# The last group's last table id: tables opened later (late registration) fall in it.
OPEN_END = 2**62


def ranges(table_ids: Sequence[int], *, per_group: int) -> list[tuple[int, int]]:
    """The groups of these new tables (ids ascending): ceil(n / per_group) runs of consecutive ids, their lengths
    differing by at most one, each as (first id, last id)."""
    ids = sorted(table_ids)
    if not ids:
        return []
    count = -(-len(ids) // max(1, per_group))
    base, extra = divmod(len(ids), count)
    out: list[tuple[int, int]] = []
    at = 0
    for index in range(count):
        length = base + (1 if index < extra else 0)
        out.append((ids[at], ids[at + length - 1]))
        at += length
    return out


def band(*, players_left: int, tables_open: int) -> int:
    """`b`: a balanced field seats `b` or `b + 1` players at every open table."""
    return players_left // max(1, tables_open)


def plan_within_group(
    hist: Mapping[str, int],
    group_sizes: Iterable[int],
    *,
    players_left: int,
    tables_open: int,
    seats: int,
) -> bool:
    """May the plan read the group (of `group_sizes`, every open table of it, counted in the tournament's
    histogram `hist`) only, and keep the whole field balanced with as few moves as a plan over every table?"""
    sizes = [int(size) for size in group_sizes]
    if not sizes or tables_open <= 1 or len(sizes) >= tables_open:
        return False
    if not consistent(hist, tables_open=tables_open, players_left=players_left):
        return False
    players = sum(sizes)
    # The tables to break: the field's, and the group's own plan's (`plan_seating` breaks its surplus).
    surplus = tables_open - max(1, -(-players_left // seats))
    if surplus > 1 or len(sizes) - max(1, -(-players // seats)) != surplus or len(sizes) - surplus < 1:
        return False
    rest = Counter({int(size): int(count) for size, count in hist.items()})
    rest.subtract(Counter(sizes))
    if any(count < 0 for count in rest.values()):
        return (
            False  # the histogram does not hold the group's tables: plan over every table, which rewrites it
        )
    if surplus and min(sizes) > min((size for size, count in rest.items() if count), default=min(sizes)):
        return False  # a smaller table elsewhere is the one to break
    low = band(players_left=players_left, tables_open=tables_open - surplus)
    if any(count and size not in (low, low + 1) for size, count in rest.items()):
        return False  # a table elsewhere is out of the band: the groups are rebalanced against each other
    kept = len(sizes) - surplus
    return low * kept <= players <= (low + 1) * kept


def in_band(sizes: Iterable[int], *, players_left: int, tables_kept: int) -> bool:
    """Does every one of these tables seat `b` or `b + 1` players (`b` = players left // tables kept)? A plan within
    groups is kept only if so: with a giver of the group mid-round it may be partial, where a plan over every
    table would have taken a player from another group's table waiting for its deal."""
    low = band(players_left=players_left, tables_open=tables_kept)
    return all(low <= int(size) <= low + 1 for size in sizes)


def merged(groups: Sequence[tuple[int, int, int]], *, per_group: int) -> list[tuple[int, int]]:
    """As the field shrinks: the groups (first id, last id, open tables; ids ascending, runs not overlapping)
    after merging every group of fewer than half `per_group` open tables with a neighbour (the smaller one),
    while the merged group stays within `per_group`. Answers the new runs (first id, last id); one run left means
    no groups are needed."""
    runs = [list(group) for group in sorted(groups)]
    changed = True
    while changed and len(runs) > 1:
        changed = False
        for index, (_first, _last, tables) in enumerate(runs):
            if tables * 2 >= per_group:
                continue
            neighbours = [i for i in (index - 1, index + 1) if 0 <= i < len(runs)]
            target = min(neighbours, key=lambda i: runs[i][2])
            if runs[target][2] + tables > per_group:
                continue
            low, high = sorted((index, target))
            runs[low] = [runs[low][0], runs[high][1], runs[low][2] + runs[high][2]]
            del runs[high]
            changed = True
            break
    return [(first, last) for first, last, _tables in runs]


def replaced(hist: Mapping[str, int], *, before: Iterable[int], after: Iterable[int]) -> dict[str, int]:
    """The histogram once tables of sizes `before` (counted in `hist`) are replaced by tables of sizes `after`."""
    counts = Counter({int(size): int(count) for size, count in hist.items()})
    counts.subtract(Counter(int(size) for size in before))
    counts.update(int(size) for size in after)
    return {str(size): count for size, count in sorted(counts.items()) if count > 0}

"""Table groups' pure rules (`tournaments/multi_table/planning/groups.py`, docs/tournaments.md "Table groups"): the
runs of table ids, the merges as the field shrinks, and the test a table's job makes before planning within its
group, checked against the planner itself: whenever it says yes, the plan over the group's tables only breaks as
many tables and moves as many players as the plan over every table, and (every table between rounds) leaves the
whole field within one player."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.multi_table.planning import groups, table_sizes
from tournaments.multi_table.planning.seating_plan import SeatedPlayer, TableState, plan_seating


def test_ranges_split_the_new_tables_evenly_in_runs_of_ids() -> None:
    assert groups.ranges([], per_group=3) == []
    assert groups.ranges([5, 6, 7], per_group=3) == [(5, 7)]
    assert groups.ranges([9, 5, 6, 7, 8], per_group=3) == [(5, 7), (8, 9)]
    assert groups.ranges(list(range(10, 20)), per_group=4) == [(10, 13), (14, 16), (17, 19)]


def test_small_groups_merge_with_their_smaller_neighbour_within_the_group_size() -> None:
    # 1 open table in the middle group: merged with the smaller neighbour (the first, 3 tables).
    assert groups.merged([(1, 10, 3), (11, 20, 1), (21, 30, 4)], per_group=4) == [(1, 20), (21, 30)]
    # Every group small: merged pairwise until none has fewer than half the size.
    assert groups.merged([(1, 10, 1), (11, 20, 1), (21, 30, 1), (31, 40, 1)], per_group=4) == [
        (1, 20),
        (21, 40),
    ]
    assert groups.merged([(1, 10, 1), (11, 20, 0), (21, 30, 1)], per_group=6) == [(1, 30)]
    # Nothing to merge.
    assert groups.merged([(1, 10, 2), (11, 20, 4)], per_group=4) == [(1, 10), (11, 20)]


def test_the_band_and_the_histogram_once_tables_are_replaced() -> None:
    assert groups.band(players_left=23, tables_open=6) == 3
    hist = table_sizes.histogram([4, 4, 3, 2, 4])
    assert groups.replaced(hist, before=[4, 2], after=[3, 3]) == table_sizes.histogram([4, 3, 3, 3, 4])


def test_within_the_group_only_when_the_rest_is_in_the_band_and_the_break_is_the_groups() -> None:
    # b = 17 // 5 = 3; the rest (4, 4, 3) in {3, 4}; the group (4, 2) holds 6 players for 2 tables: in band.
    hist = table_sizes.histogram([4, 4, 3, 4, 2])
    assert groups.plan_within_group(hist, [4, 2], players_left=17, tables_open=5, seats=4)
    # A table elsewhere below the band: the groups are rebalanced against each other (every table planned).
    hist = table_sizes.histogram([4, 2, 4, 4, 4])
    assert not groups.plan_within_group(hist, [4, 4], players_left=18, tables_open=5, seats=4)
    # The group's players do not fit its tables within the band.
    hist = table_sizes.histogram([4, 4, 4, 3, 2])
    assert not groups.plan_within_group(hist, [3, 2], players_left=17, tables_open=5, seats=4)
    # 15 players need 4 tables of 4: a table to break, the group's (its 3 players fit one table fewer).
    hist = table_sizes.histogram([4, 4, 4, 1, 2])
    assert groups.plan_within_group(hist, [1, 2], players_left=15, tables_open=5, seats=4)
    # ... but not when the group's players need both its tables (the field's surplus is spread).
    hist = table_sizes.histogram([3, 4, 3, 3, 3])
    assert not groups.plan_within_group(hist, [3, 4], players_left=16, tables_open=5, seats=4)
    # ... nor when a smaller table elsewhere is the one to break.
    hist = table_sizes.histogram([4, 1, 4, 2, 2])
    assert not groups.plan_within_group(hist, [4, 2, 2], players_left=13, tables_open=5, seats=4)
    # An untrusted histogram, or the group being every table.
    assert not groups.plan_within_group({"4": 2}, [4, 2], players_left=17, tables_open=5, seats=4)
    hist = table_sizes.histogram([4, 3])
    assert not groups.plan_within_group(hist, [4, 3], players_left=7, tables_open=2, seats=4)


def _states(sizes: list[int], *, start: int, moved: random.Random) -> list[TableState]:
    states = []
    entry = start * 100
    for offset, size in enumerate(sizes):
        players = []
        for _ in range(size):
            entry += 1
            players.append(SeatedPlayer(entry=entry, times_moved=moved.randrange(3)))
        states.append(
            TableState(table=start + offset, size=size, between_rounds=True, players=tuple(players))
        )
    return states


@settings(max_examples=3000, deadline=None)
@given(
    seats=st.integers(min_value=2, max_value=9),
    low=st.integers(min_value=1, max_value=8),
    rest=st.lists(st.booleans(), min_size=1, max_size=12),
    group=st.lists(st.integers(min_value=-3, max_value=3), min_size=1, max_size=8),
    seed=st.integers(min_value=0, max_value=2**16),
)
def test_a_plan_within_the_group_is_exact_for_the_whole_field(
    seats: int, low: int, rest: list[bool], group: list[int], seed: int
) -> None:
    """`rest`: the other tables, each of `low` or `low + 1` players; `group`: the group's sizes. When the test
    says yes, the group's plan is the whole field's: as many tables broken (of the same sizes) and as many moves
    as planning every table, every table of the field within one player of every other after it."""
    low = min(low, seats - 1)
    rest_sizes = [low + 1 if up else low for up in rest]
    group_sizes = [max(0, min(low + off, seats)) for off in group]
    everything = rest_sizes + group_sizes
    hist = table_sizes.histogram(everything)
    players, tables = sum(everything), len(everything)
    if not groups.plan_within_group(hist, group_sizes, players_left=players, tables_open=tables, seats=seats):
        return
    moved = random.Random(seed)
    group_states = _states(group_sizes, start=1000, moved=moved)
    rest_states = _states(rest_sizes, start=1, moved=moved)
    within = plan_seating(group_states, seats=seats, rng=random.Random(seed))
    whole = plan_seating(rest_states + group_states, seats=seats, rng=random.Random(seed))
    size = {s.table: s.size for s in rest_states + group_states}
    assert sorted(size[t] for t in within.broken) == sorted(size[t] for t in whole.broken)
    assert len(within.moves) == len(whole.moves)
    after = table_sizes.after_plan({s.table: s.size for s in rest_states + group_states}, within)
    assert max(after.values()) - min(after.values()) <= 1, after


def field_model(tables: int, per_group: int, *, seats: int = 4, seed: int = 1) -> dict[str, int]:
    """A model of how often the plans of a large field read every table: `tables` full tables in groups of
    `per_group` (runs of ids), players busted one table at a time (one, or two a fifth of the time) until half
    the field is out, each table's plan made at once with every table between rounds, as the job chooses it:
    none (`table_sizes.plan_needed`), within the table's group, across the groups whose histogram shows a table
    off the size every kept table has or may have (at most 8), else every table. A plan leaves its tables
    at `b` or `b + 1` players, breaking the smallest (the sizes `plan_seating` leaves; which table gets which
    size aside). Answers the counts."""
    rng = random.Random(seed)
    sizes = dict.fromkeys(range(tables), seats)
    members: dict[int, set[int]] = {}
    for table in range(tables):
        members.setdefault(table // per_group, set()).add(table)
    players = seats * tables
    counts = {"none": 0, "within": 0, "across": 0, "every": 0}

    def balance(ids: list[int]) -> None:
        total = sum(sizes[t] for t in ids)
        ordered = sorted(ids, key=lambda t: sizes[t])
        broken = ordered[: len(ids) - max(1, -(-total // seats))]
        for table in broken:
            del sizes[table]
            members[table // per_group].discard(table)
        kept = sorted((t for t in ids if t not in broken), key=lambda t: -sizes[t])
        base, extra = divmod(total, len(kept))
        for index, table in enumerate(kept):
            sizes[table] = base + (1 if index < extra else 0)

    while players > seats * tables // 2:
        table = rng.randrange(tables)
        if table not in sizes or sizes[table] < 2:
            continue
        busted = min(2 if rng.random() < 0.2 else 1, sizes[table] - 1)
        sizes[table] -= busted
        players -= busted
        hist = table_sizes.histogram(sizes.values())
        field = {"players_left": players, "tables_open": len(sizes), "seats": seats}
        if not table_sizes.plan_needed(hist, size=sizes[table], **field):
            counts["none"] += 1
            continue
        own = [t for t in members[table // per_group] if t in sizes]
        if groups.plan_within_group(hist, [sizes[t] for t in own], **field):
            counts["within"] += 1
            balance(own)
            continue
        surplus = len(sizes) - max(1, -(-players // seats))
        target = min(groups.band(players_left=players, tables_open=len(sizes) - surplus) + 1, seats)
        chosen = {table // per_group} | {
            g for g, ids in members.items() if any(sizes[t] != target for t in ids if t in sizes)
        }
        ids = [t for g in chosen for t in members[g] if t in sizes]
        if len(chosen) <= 8 and groups.plan_within_group(hist, [sizes[t] for t in ids], **field):
            counts["across"] += 1
            balance(ids)
        else:
            counts["every"] += 1
            balance(list(sizes))
    return counts


def test_in_a_large_field_model_no_plan_reads_every_table() -> None:
    """The model above at 600 tables in groups of 50 (docs/performance.md "Table groups" runs it at 5,000 in
    groups of 250): every plan reads its group or a few groups, never every table."""
    counts = field_model(600, 50)
    assert counts["within"] > 0 and counts["across"] > 0
    assert counts["every"] == 0, counts

"""The pure seating of multi-table tournaments (docs/tournaments.md "Multi-table tournaments: seating and
places"): the first tables, balancing and breaking tables between rounds, and the table of a late registrant.
Plain values in, plain values out: no database, no Django.

docs/tournaments.md "Multi-table tournaments: seating and places": tables of `seats` are filled at random and
evenly; between rounds they are balanced (no two tables differ by more than one player, moving as few players
as possible, preferring those moved least often) and broken when the players left fit in fewer tables (a
broken table's players are reseated at random); nobody is moved during a round.

`plan_seating` is called at every table's round end, with the sizes of all tables but the players only of the
tables between rounds (the only ones players may leave). A table mid-round may receive players: they wait for
its next deal. When every table is between rounds the plan moves the fewest players possible; when a table that
should be broken is mid-round and no movable table can be broken in its place without moving more players, it is
left for later (the plan is partial: one table too many) and is broken at its own round end, when it is planned
again.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatedPlayer:
    entry: int
    times_moved: int


@dataclass(frozen=True)
class TableState:
    table: int
    size: int
    between_rounds: bool
    # Given (len == size) exactly when between_rounds: at scale the caller reads only the sizes of the tables
    # mid-round and the players of the few tables players may be moved from.
    players: tuple[SeatedPlayer, ...] = ()


@dataclass(frozen=True)
class Move:
    entry: int
    source: int
    destination: int


@dataclass(frozen=True)
class Plan:
    moves: tuple[Move, ...]
    broken: tuple[int, ...]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def initial_tables(entries: Sequence[int], *, seats: int, rng: random.Random) -> list[list[int]]:
    """The first tables: ceil(n/seats) of them, sizes differing by at most one, the entries shuffled by `rng`.
    No entries, no tables."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    shuffled = list(entries)
    rng.shuffle(shuffled)
    count = _ceil_div(len(shuffled), seats)
    tables: list[list[int]] = [[] for _ in range(count)]
    for index, entry in enumerate(shuffled):
        tables[index % count].append(entry)
    return tables


def table_for_newcomer(sizes: Mapping[int, int], *, seats: int) -> int | None:
    """A late registrant's or re-entrant's table: a smallest table with a free seat, ties to the lowest id;
    None when every table is full (the caller opens a new table)."""
    best: tuple[int, int] | None = None
    for table, size in sizes.items():
        if size < seats and (best is None or (size, table) < best):
            best = (size, table)
    return None if best is None else best[1]


def _bucket(
    tables: Sequence[TableState], seats: int
) -> tuple[list[list[TableState]], list[list[TableState]]]:
    """Validates the tables and buckets them by size: (mid-round, between rounds), each in input order."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    frozen: list[list[TableState]] = [[] for _ in range(seats + 1)]
    movable: list[list[TableState]] = [[] for _ in range(seats + 1)]
    for state in tables:
        size = state.size
        if not 0 <= size <= seats:
            raise ValueError(f"table {state.table} has {size} players for {seats} seats")
        if state.between_rounds:
            if len(state.players) != size:
                raise ValueError(f"table {state.table} is between rounds: its {size} players must be given")
            movable[size].append(state)
        else:
            if state.players:
                raise ValueError(f"table {state.table} is mid-round: its players are neither moved nor given")
            frozen[size].append(state)
    if len({state.table for state in tables}) != len(tables):
        raise ValueError("a table is given twice")
    return frozen, movable


def _move_cost(histogram: list[int], broken_sizes: Sequence[int], players: int, seats: int) -> int:
    """The fewest moves with these tables broken: their players plus, at each kept table, those above its target
    (floor/ceil of players over kept tables, the ceil targets to the largest). O(seats)."""
    kept = list(histogram)
    for size in broken_sizes:
        kept[size] -= 1
    count = sum(kept)
    if not count:
        return sum(broken_sizes)
    base, ceil_count = divmod(players, count)
    excess = 0
    for size in range(seats, -1, -1):
        with_ceil = min(kept[size], ceil_count)
        ceil_count -= with_ceil
        excess += with_ceil * max(0, size - base - 1) + (kept[size] - with_ceil) * max(0, size - base)
    return sum(broken_sizes) + excess


def _choose_broken(
    frozen: list[list[TableState]], movable: list[list[TableState]], *, players: int, seats: int
) -> list[TableState]:
    """The tables to break: the smallest ones (ties: between rounds first, then the highest id). A mid-round one
    among them is replaced by the smallest movable table not chosen only if that moves no more players in all
    (`_move_cost`); else it is left for later and the plan is partial."""
    histogram = [len(frozen[size]) + len(movable[size]) for size in range(seats + 1)]
    surplus = sum(histogram) - max(1, _ceil_div(players, seats))
    if surplus <= 0:
        return []
    # Only the first `surplus` mid-round tables of a size are ever needed: big buckets are cut with nlargest.
    ordered: list[TableState] = []
    for size in range(seats + 1):
        ordered += sorted(movable[size], key=lambda s: -s.table)
        if len(ordered) >= surplus:
            break
        ordered += heapq.nlargest(surplus - len(ordered), frozen[size], key=lambda s: s.table)
        if len(ordered) >= surplus:
            break
    chosen = ordered[:surplus]
    chosen_ids = {state.table for state in chosen}
    spare = [
        state
        for size in range(seats + 1)
        for state in sorted(movable[size], key=lambda s: -s.table)
        if state.table not in chosen_ids
    ]
    result = [state for state in chosen if state.between_rounds]
    for state in chosen:
        if state.between_rounds or not spare:
            continue
        sizes = [s.size for s in result]
        if _move_cost(histogram, [*sizes, spare[0].size], players, seats) <= _move_cost(
            histogram, [*sizes, state.size], players, seats
        ):
            result.append(spare.pop(0))
        # else left for later: this table is broken at its own round end, when it is planned again.
    return result


def plan_seating(tables: Sequence[TableState], *, seats: int, rng: random.Random) -> Plan:
    """The moves between rounds: break the tables that are too many, then balance (see the module docstring).

    Players only leave tables between rounds and only those are broken; no table ever exceeds `seats`; nobody
    is moved twice. With every table between rounds the plan is complete and minimal: it moves the players of
    the broken (smallest) tables plus, at each kept table, those above its target (floor/ceil of players over
    tables, the ceil targets to the largest kept tables; among equal sizes to the mid-round ones first, which
    cannot give players away). The broken tables' players are shuffled and, with the players taken off the
    tables above target (those moved least often, ties drawn by `rng`), fill the seats below target, always at
    a table furthest below its target (ties drawn by `rng`). If a mid-round table holds players above its
    target, the rest is balanced move by move: a player from a largest table that can give one to a smallest,
    while they differ by more than one. The same seed gives the same plan. O(tables + seats * moved).
    """
    frozen, movable = _bucket(tables, seats)
    if not any(movable):
        return Plan(moves=(), broken=())
    players = sum(state.size for state in tables)
    broken = _choose_broken(frozen, movable, players=players, seats=seats)
    broken_ids = {state.table for state in broken}
    for size in {state.size for state in broken}:
        movable[size] = [state for state in movable[size] if state.table not in broken_ids]
    base, ceil_left = divmod(players, len(tables) - len(broken))

    movers: list[tuple[SeatedPlayer, int]] = [(p, state.table) for state in broken for p in state.players]
    rng.shuffle(movers)
    original: dict[int, int] = {}  # the size before the plan of every table it may touch
    # The kept movable tables' players not moved:
    remaining: dict[int, list[SeatedPlayer]] = {}
    below: list[list[int]] = [[] for _ in range(seats + 1)]  # tables by how many players they lack
    for size in range(seats, -1, -1):
        group = frozen[size] + movable[size]
        with_ceil = min(ceil_left, len(group))
        ceil_left -= with_ceil
        for part, goal in ((group[:with_ceil], base + 1), (group[with_ceil:], base)):
            if part and size < goal:
                below[goal - size] += [state.table for state in part]
                original.update((state.table, size) for state in part)
        for index in range(len(frozen[size]), len(group)):
            state = group[index]
            give = size - (base + 1 if index < with_ceil else base)
            original[state.table] = size
            if give <= 0:
                remaining[state.table] = list(state.players)  # ordered by _rebalance, if ever needed
                continue
            shuffled = _least_moved_first(state.players, rng)
            movers += [(p, state.table) for p in shuffled[:give]]
            remaining[state.table] = shuffled[give:]

    # Each player to a table furthest below its target (ties drawn by rng).
    current: dict[int, int] = {}  # the size after the moves so far of the tables that changed
    lacking = seats
    moves: list[Move] = []
    for player, source in movers:
        while lacking and not below[lacking]:
            lacking -= 1
        if not lacking:
            raise AssertionError("the seats below target are at least the players to move")
        pool = below[lacking]
        index = rng.randrange(len(pool))
        pool[index], pool[-1] = pool[-1], pool[index]
        destination = pool.pop()
        below[lacking - 1].append(destination)
        moves.append(Move(entry=player.entry, source=source, destination=destination))
        current[destination] = current.get(destination, original[destination]) + 1
        if source in remaining:
            current[source] = current.get(source, original[source]) - 1
    if _unbalanced(frozen, movable, original, current, remaining):
        sizes = {state.table: state.size for bucket in (*frozen, *movable) for state in bucket}
        sizes.update(current)
        moves += _rebalance(sizes, {t: _least_moved_first(left, rng) for t, left in remaining.items()})
    return Plan(moves=tuple(moves), broken=tuple(state.table for state in broken))


def _least_moved_first(players: Sequence[SeatedPlayer], rng: random.Random) -> list[SeatedPlayer]:
    shuffled = list(players)
    rng.shuffle(shuffled)
    shuffled.sort(key=lambda p: p.times_moved)
    return shuffled


def _unbalanced(
    frozen: list[list[TableState]],
    movable: list[list[TableState]],
    original: dict[int, int],
    current: dict[int, int],
    remaining: dict[int, list[SeatedPlayer]],
) -> bool:
    """Whether a table that can still give a player holds more than one player above the smallest table, without
    a pass over all tables: the unchanged ones are counted by size."""
    givers = [current.get(table, original[table]) for table, left in remaining.items() if left]
    if not givers:
        return False
    changed_at = [0] * len(frozen)
    for table in current:
        changed_at[original[table]] += 1
    unchanged = [
        size for size in range(len(frozen)) if len(frozen[size]) + len(movable[size]) > changed_at[size]
    ]
    smallest = min([*unchanged[:1], *current.values()])
    return max(givers) - smallest > 1


def _rebalance(size: dict[int, int], remaining: dict[int, list[SeatedPlayer]]) -> list[Move]:
    """While a largest table that can still give a player (one not moved by this plan) exceeds a smallest table
    by more than one, move one of its players moved least often to it. Reached only when a mid-round table holds
    players above its target, so that the targets could not all be met."""
    largest_heap = [(-size[t], t) for t, left in remaining.items() if left]
    heapq.heapify(largest_heap)
    smallest_heap = [(s, t) for t, s in size.items()]
    heapq.heapify(smallest_heap)
    moves: list[Move] = []
    while largest_heap and smallest_heap:
        negative, giver = largest_heap[0]
        if -negative != size[giver] or not remaining[giver]:
            heapq.heappop(largest_heap)
            continue
        low, receiver = smallest_heap[0]
        if low != size[receiver]:
            heapq.heappop(smallest_heap)
            continue
        if size[giver] - low <= 1:
            break
        player = remaining[giver].pop(0)
        moves.append(Move(entry=player.entry, source=giver, destination=receiver))
        size[giver] -= 1
        size[receiver] += 1
        heapq.heapreplace(largest_heap, (-size[giver], giver))
        heapq.heapreplace(smallest_heap, (size[receiver], receiver))
        heapq.heappush(smallest_heap, (size[giver], giver))
        if remaining.get(receiver):
            heapq.heappush(largest_heap, (-size[receiver], receiver))
    return moves

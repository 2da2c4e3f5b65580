"""The pure arithmetic of one-table tournaments (docs/tournaments.md "Prizes"): places from totals, what comes
after a round, the payout table applied to a pool with shared places, and the split of the unpaid pool when an
admin cancels.

Plain values in, plain values out: no database, no Django. `single_table.progress` and `multi_table.finish` feed
them what the tournament recorded and post what they answer through the ledger.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

PERCENT = 100


def place_by_keys(keys: Mapping[str, Any]) -> dict[str, int]:
    """Competition ranking, higher key first: a player's place is 1 + the number of players with a strictly
    better key, so equal keys share a place and the places after a shared one are skipped (1, 2, 2, 4)."""
    ranked = sorted(keys.values(), reverse=True)
    first_index: dict[Any, int] = {}
    for index, key in enumerate(ranked):
        first_index.setdefault(key, index)
    return {player: first_index[key] + 1 for player, key in keys.items()}


def place_by_totals(totals: Mapping[str, int]) -> dict[str, int]:
    return place_by_keys(totals)


def place_amounts(pool: int, payouts: Sequence[int], players: int) -> list[int]:
    """Chips for places 1..`players`: each place its percentage of the pool rounded down; what rounding and
    unfilled places leave over goes to first place, so the amounts always sum to the pool."""
    if pool < 0 or players < 1:
        raise ValueError("a pool is paid to at least one player and is never negative")
    amounts = [pool * pct // PERCENT for pct in list(payouts)[:players]]
    amounts += [0] * (players - len(amounts))
    amounts[0] += pool - sum(amounts)
    return amounts


def split_prizes(
    *, pool: int, payouts: Sequence[int], places: Mapping[str, int], registration_order: Sequence[str]
) -> dict[str, int]:
    """Each player's prize. `k` players sharing place `p` share the amounts of places p .. p+k-1 equally,
    rounded down, the remainder one chip each to the earlier registrations (docs/tournaments.md "Prizes")."""
    amounts = place_amounts(pool, payouts, len(places))
    order = {player: index for index, player in enumerate(registration_order)}
    by_place: dict[int, list[str]] = {}
    for player, place in places.items():
        by_place.setdefault(place, []).append(player)
    prizes: dict[str, int] = {}
    for place, sharers in by_place.items():
        sharers.sort(key=lambda p: order[p])
        together = sum(amounts[place - 1 : place - 1 + len(sharers)])
        each, left = divmod(together, len(sharers))
        for index, player in enumerate(sharers):
            prizes[player] = each + (1 if index < left else 0)
    return prizes


def cancel_split(*, pool: int, weights: Mapping[str, int], seat_order: Sequence[str]) -> dict[str, int]:
    """An admin cancels a running tournament: the unpaid pool to the players still in, half equally and half
    in proportion to their weight (tournament chips; at one table, their totals counted from zero up), the
    leftovers to the biggest weight, ties in seat order (docs/tournaments.md "Lifecycle"). With every weight
    zero, all equally."""
    players = list(seat_order)
    if not players:
        raise ValueError("a pool is split among at least one player")
    clamped = {p: max(0, int(weights.get(p, 0))) for p in players}
    whole = sum(clamped.values())
    equal_half = pool // 2 if whole else pool
    proportional_half = pool - equal_half
    shares = {p: equal_half // len(players) for p in players}
    if whole:
        for p in players:
            shares[p] += proportional_half * clamped[p] // whole
    biggest = max(players, key=lambda p: (clamped[p], -players.index(p)))
    shares[biggest] += pool - sum(shares.values())
    return shares

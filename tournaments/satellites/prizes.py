"""The pure arithmetic of a satellite's prizes (docs/rules.md "Satellites"): plain values in and out.

Seats = ⌊pool / face value⌋ (never more than the players placed); places 1 to seats win one ticket each; the rest
of the pool goes in chips to place seats + 1 (to place 1 when every player placed wins a ticket). With no seat the
payout table pays the whole pool in chips. Players sharing places share what those places carry: tickets when
every shared place carries one, else the places' whole value (the face value of their tickets and their chips)
in chips, split equally, the remainder one chip each to the earlier registrations. A ticket won by a player who
already holds an entry or a ticket to the target is paid as its face value in chips."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tournaments.tournament.payouts import split_prizes


@dataclass(frozen=True)
class Award:
    tickets: int
    chips: int

    def value(self, face_value: int) -> int:
        return self.tickets * face_value + self.chips


def seats_for(*, pool: int, face_value: int, players: int | None = None) -> int:
    """⌊pool / face value⌋, at most `players` when given; 0 for a target with no face value."""
    if pool < 0:
        raise ValueError("a pool is never negative")
    if face_value <= 0:
        return 0
    seats = pool // face_value
    return seats if players is None else min(seats, players)


def awards(
    *,
    pool: int,
    face_value: int,
    payouts: Sequence[int],
    places: Mapping[str, int],
    registration_order: Sequence[str],
    holders: Collection[str] = (),
) -> dict[str, Award]:
    """Each placed player's award; the values sum to the pool."""
    players = len(places)
    seats = seats_for(pool=pool, face_value=face_value, players=players)
    if seats == 0:
        shares = split_prizes(
            pool=pool, payouts=payouts, places=places, registration_order=registration_order
        )
        return {p: Award(0, c) for p, c in shares.items()}
    tickets = [1 if index < seats else 0 for index in range(players)]
    chips = [0] * players
    chips[seats if seats < players else 0] += pool - seats * face_value
    order = {player: index for index, player in enumerate(registration_order)}
    by_place: dict[int, list[str]] = {}
    for player, place in places.items():
        by_place.setdefault(place, []).append(player)
    result: dict[str, Award] = {}
    for place, sharers in by_place.items():
        sharers.sort(key=lambda p: order[p])
        span = range(place - 1, place - 1 + len(sharers))
        together = sum(chips[i] for i in span)
        each, left = divmod(together, len(sharers))
        if all(tickets[i] for i in span):
            for index, player in enumerate(sharers):
                result[player] = Award(1, each + (1 if index < left else 0))
            continue
        together += sum(tickets[i] for i in span) * face_value
        each, left = divmod(together, len(sharers))
        for index, player in enumerate(sharers):
            result[player] = Award(0, each + (1 if index < left else 0))
    for player in holders:
        award = result.get(player)
        if award is not None and award.tickets:
            result[player] = Award(0, award.value(face_value))
    return result

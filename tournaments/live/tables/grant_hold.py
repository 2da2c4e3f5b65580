"""The house grant's play-through (docs/operations.md "The house grant"): chips the house gave a player are
staked at public tables before they may go to a private one.

A private table is joined by its code, so its players choose each other: six new accounts losing their welcome
chips to one "master" there in one round each is the farm the rule closes. A grant stays **held** until the
player has played `GrantPolicy.play_through_rounds` rounds at public ring tables that ended after it, against
at least `play_through_opponents` different players (so a heads-up table with one partner does not release it).
While any grant is held, a buy-in at a private table (sitting down, joining by code, topping up) may take only
the wallet's chips beyond the held ones. Private tables, practice tables and tournaments do not count: only
rounds at public ring tables, where the other seats are open to anyone.

Grants are read from the ledger (`ledger.selectors.grants_received`), the rounds from the deal's `RoundPlayer`
rows; an older grant has at least the rounds of a newer one after it, so once a grant is played through every
older one is too."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ledger.selectors import grant_policy, grants_received
from tournaments.live.models import RoundPlayer

# Rounds read per check, newest first, besides the policy's own count (opponents may need more of them).
SCAN_ROUNDS = 1_000


@dataclass(frozen=True)
class GrantHold:
    """The chips held and, for the newest held grant, how far the player is with its play-through."""

    held: int
    rounds_played: int = 0
    rounds_needed: int = 0
    opponents_met: int = 0
    opponents_needed: int = 0

    @property
    def rounds_to_play(self) -> int:
        return max(0, self.rounds_needed - self.rounds_played)

    @property
    def opponents_to_meet(self) -> int:
        return max(0, self.opponents_needed - self.opponents_met)


def _public_rounds(user: Any, limit: int) -> list[tuple[datetime, frozenset[str]]]:
    """The player's rounds at public ring tables, newest first: when each ended, and the other players."""
    name = user.get_username()
    rows = (
        RoundPlayer.objects.filter(
            user=user,
            round__settled=True,
            round__ended_at__isnull=False,
            round__game__table__private=False,
            round__game__table__practice=False,
            round__game__table__tournament__isnull=True,
        )
        .order_by("-round")
        .values_list("round__ended_at", "round__players")[:limit]
    )
    # `ended_at` is set: the filter reads only rounds that are over.
    return [
        (ended, frozenset(p for p in players if p != name)) for ended, players in rows if ended is not None
    ]


def hold_of(*, user: Any) -> GrantHold:
    """The player's granted chips not yet played through (0 when the policy holds nothing)."""
    policy = grant_policy()
    needed_rounds, needed_opponents = policy.play_through_rounds, policy.play_through_opponents
    if needed_rounds <= 0:
        return GrantHold(held=0)
    grants = grants_received(user=user)
    if not grants:
        return GrantHold(held=0)
    rounds = _public_rounds(user, max(SCAN_ROUNDS, 4 * needed_rounds))
    held = 0
    newest: GrantHold | None = None
    for grant in reversed(grants):
        after = [opponents for ended, opponents in rounds if ended > grant.at]
        met = len(frozenset().union(*after))
        if len(after) >= needed_rounds and met >= needed_opponents:
            break  # played through, and so is every older grant
        held += grant.chips
        if newest is None:
            newest = GrantHold(
                held=0,
                rounds_played=len(after),
                rounds_needed=needed_rounds,
                opponents_met=met,
                opponents_needed=needed_opponents,
            )
    if newest is None:
        return GrantHold(held=0)
    return GrantHold(
        held=held,
        rounds_played=newest.rounds_played,
        rounds_needed=needed_rounds,
        opponents_met=newest.opponents_met,
        opponents_needed=needed_opponents,
    )

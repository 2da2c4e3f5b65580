"""The interface of a table's policy (`live.tables.policy`): what the kind of table decides when a round starts and ends,
and where a freed seat's chips go. Its own module so that the policies of each kind (`live.tables.policy`'s ring tables,
`single_table.policy`, `multi_table.policy`) and `live.tables.seats` share it without a cycle."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from ledger.models import Account
from tournaments.live.models import Game, Round, Seat, Table


class AfterRound(enum.Enum):
    """What becomes of a seat once its round is settled."""

    STAYS = "stays"  # seated as it is
    SITS_OUT = "sits_out"  # seated, dealt in again once it has chips
    RELEASED = "released"  # leaves the table (`TablePolicy.release`)


@dataclass(frozen=True)
class RoundEnd:
    """The policy's one answer at the end of a round (`TablePolicy.round_end`): all the round's end asks it,
    as plain values. Each seat's fate and readiness depend on its status and on whether it holds chips: a
    (status, holds chips) pair looks them up."""

    # `after_round` for each seated status, holding chips or not.
    fates: Mapping[tuple[str, bool], AfterRound]
    # The (status, holds chips) pairs `is_ready` says are dealt in next.
    ready: frozenset[tuple[str, bool]]
    # `next_deal_in` for 0, 1, ... up to every seat ready.
    waits: Sequence[float | None]
    # The settlement's (when it settles): `round_pcr`, `settlement_record`, `tie_break_keys`.
    pcr: int
    record: Mapping[str, Any]
    tie_keys: Mapping[str, tuple[Any, ...]] | None
    # Whether `round_settled` does anything (else the round's end need not call it).
    acts_when_settled: bool


@dataclass(frozen=True)
class StackedDeal:
    """A round dealt from a chosen deck (a practice table's demo): every card, top first, as the engine's
    `new_round(deck=...)` takes it, and the username of the round's dealer."""

    deck: tuple[str, ...]
    dealer: str


class TablePolicy(Protocol):
    # Seats in these statuses holding chips are ready for the next deal.
    ready_statuses: tuple[str, ...]
    # Whether a round's scores move chips between the seats (PCR settlement); else they are points only.
    settles_chips: bool

    # A simulation's table: each round dealt is ended at once with random scores (`instant_rounds`).
    instant_rounds: bool
    # Deals only a round its tournament scheduled (`Game.next_round_at` set by the tournament's job): a late or
    # duplicated start message finding none scheduled deals nothing (the job must run between two rounds).
    deals_only_when_scheduled: bool

    def round_end(
        self, *, table: Table, round_: Round, result: Mapping[str, Any], seated: int, settles: bool
    ) -> RoundEnd:
        """Everything the end of `round_` (its `result`, `seated` seats) asks, in one answer: the settlement's
        PCR, record and tie-break keys when it `settles` chips, each seat's fate, the next deal's wait."""
        ...

    def round_pcr(self, table: Table, round_: Round) -> int:
        """Chips per point of the round being settled."""
        ...

    def settlement_record(self, table: Table, round_: Round) -> dict[str, Any]:
        """What the settlement's computation record adds to show where `round_pcr` came from."""
        ...

    def tie_break_keys(self, *, result: Mapping[str, Any]) -> Mapping[str, tuple[Any, ...]] | None:
        """Keys breaking a tie for the round's top score (`ledger.settlement`); None: a tie is shared."""
        ...

    def holds_deal(self, *, game: Game, now: datetime) -> bool:
        """At a due deal, under the game's lock and before anything is changed: does the deal wait? Then the
        policy has stored and sent what comes next (the deal again later, or the tournament's job)."""
        ...

    def deals_in(self, *, seat: Seat, stack: int) -> bool:
        """At the deal: is `seat`, holding `stack` chips, dealt in? (Else it is released.)"""
        ...

    def status_at_deal(self, status: str) -> str:
        """The status a seat dealt in plays the round with."""
        ...

    def enough_to_deal(self, players: int) -> bool: ...

    def after_round(self, *, status: str, stack: int) -> AfterRound:
        """A seat of status `status` holding `stack` chips once the round is settled (at a table that stays
        open: closing one cashes every seat out)."""
        ...

    def is_ready(self, *, status: str, stack: int) -> bool:
        """Will this seat be dealt in at the next deal?"""
        ...

    def next_deal_in(self, *, ready: int) -> float | None:
        """Seconds until the next deal when `ready` seats are ready for it; None: no deal is scheduled."""
        ...

    def return_stack(self, *, seat: Seat, table: Table, account: Account) -> None:
        """A seat is freed (`seats.cash_out`): where the chips on its stack `account` (locked) go, the site's
        back to the player's wallet, a tournament's own chips back to where that kind of table keeps them."""
        ...

    def release(self, *, seat: Seat, table: Table) -> None:
        """Take the seat off the table. Caller holds the table's lock (or the game's, during play)."""
        ...

    def stacked_deal(self, *, table: Table, number: int) -> StackedDeal | None:
        """The deck and dealer round `number` is dealt with; None: shuffled (CSPRNG), the dealer by the rules."""
        ...

    def seat_freed(self, *, table: Table, seat: Seat) -> None:
        """A seat left the table (`seats.cash_out`, in its transaction, the table locked)."""
        ...

    def dealt(self, *, table: Table, round_: Round) -> None:
        """A round was dealt at `table` (in its transaction, under the game's lock)."""
        ...

    def round_settled(self, *, table: Table, round_id: int) -> None:
        """The round is settled (in its transaction): what the kind of table does next besides dealing."""
        ...

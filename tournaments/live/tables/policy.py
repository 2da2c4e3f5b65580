"""What the kind of table decides when a round starts and ends (docs/tables.md "Lifecycle" for ring tables), and which policy a
table plays by.

Play asks the table's policy, and never hard-codes a kind of table: the chips a point is worth in a round,
how a tie for the top score is broken, what becomes of a seat at the deal and after the round, where a freed
seat's chips go, and whether and when the next round is dealt. A ring table's is `RingTablePolicy`; every other
kind of table registers its own when the app is ready (`register`, from `TournamentsConfig.ready`): a
tournament's table is one kind here (`TOURNAMENT_TABLES`), and `tournaments.tournament.kinds` picks the policy of
that tournament's kind (the PCR of its level, the multi-table tie-break keys, busting instead of unseating,
waiting for the tournament instead of dealing again). Live play knows no tournament kind.

The decisions are pure (plain values in, a decision out); `release` and `return_stack` are the ones that act.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from django.conf import settings

from ledger.models import Account
from tournaments.live.models import SEATED_STATUSES, Game, Round, Seat, SeatStatus, Table
from tournaments.live.tables.policy_types import AfterRound, RoundEnd, StackedDeal, TablePolicy
from tournaments.live.tables.seats import cash_out, to_wallet

__all__ = [
    "PRACTICE_TABLES",
    "RING",
    "RING_TABLES",
    "TOURNAMENT_TABLES",
    "AfterRound",
    "ChangeHook",
    "PolicyFactory",
    "RingTablePolicy",
    "RoundEnd",
    "StackedDeal",
    "TablePolicy",
    "UnknownTableKind",
    "change_hook",
    "policy_for",
    "register",
    "register_change_hook",
    "registered_kinds",
    "table_kind",
]

# The kinds of table live play tells apart (`table_kind`): its own ring tables, a tournament's tables, and
# practice tables (a player against server bots: `tournaments.practice`).
RING_TABLES = "ring"
TOURNAMENT_TABLES = "tournament"
PRACTICE_TABLES = "practice"

# The policy a table of one kind plays by, made for that table (its tournament read afresh).
PolicyFactory = Callable[[Table], TablePolicy]
# Called after every change to a running round at a table of one kind, in its transaction, the game locked and
# its new state in hand (`advance.settle_state`): a practice table sends its bots' next move from here. Kept
# apart from the policy because it runs on every move: only a dict look-up for the kinds that have none.
ChangeHook = Callable[..., None]


class UnknownTableKind(LookupError):
    """No policy is registered for a table's kind (its registration was not called when the app got ready)."""


class RingTablePolicy:
    """A ring table: chips are the players' own, anyone may come and go between rounds (docs/tables.md
    "Lifecycle")."""

    ready_statuses: tuple[str, ...] = (SeatStatus.ACTIVE, SeatStatus.SITTING_OUT)
    settles_chips = True
    min_players = 2

    instant_rounds = False
    deals_only_when_scheduled = False

    def round_end(
        self, *, table: Table, round_: Round, result: Mapping[str, Any], seated: int, settles: bool
    ) -> RoundEnd:
        pairs = [(status, chips) for status in SEATED_STATUSES for chips in (False, True)]
        return RoundEnd(
            fates={(s, c): self.after_round(status=s, stack=int(c)) for s, c in pairs},
            ready=frozenset([(s, c) for s, c in pairs if self.is_ready(status=s, stack=int(c))]),
            waits=[self.next_deal_in(ready=n) for n in range(seated + 1)],
            pcr=self.round_pcr(table, round_) if settles else 0,
            record=self.settlement_record(table, round_) if settles else {},
            tie_keys=self.tie_break_keys(result=result) if settles else None,
            acts_when_settled=False,
        )

    def round_pcr(self, table: Table, round_: Round) -> int:
        return table.pcr * table.multiplier

    def settlement_record(self, table: Table, round_: Round) -> dict[str, Any]:
        return {"table_pcr": table.pcr, "multiplier": table.multiplier}

    def tie_break_keys(self, *, result: Mapping[str, Any]) -> Mapping[str, tuple[Any, ...]] | None:
        return None  # a tie for the top score is shared

    def holds_deal(self, *, game: Game, now: datetime) -> bool:
        return False

    def deals_in(self, *, seat: Seat, stack: int) -> bool:
        # No chips and no top-up during the pause: unseated (docs/rules.md "Ring tables, clocks and
        # timeouts").
        return stack > 0

    def status_at_deal(self, status: str) -> str:
        return SeatStatus.ACTIVE

    def enough_to_deal(self, players: int) -> bool:
        return players >= self.min_players

    def after_round(self, *, status: str, stack: int) -> AfterRound:
        if status in (SeatStatus.LEAVING, SeatStatus.ABSENT):
            return AfterRound.RELEASED
        if status == SeatStatus.ACTIVE and stack <= 0:
            # Busted: the pause before the next deal is the time to top up (else unseated at the deal).
            return AfterRound.SITS_OUT
        return AfterRound.STAYS

    def is_ready(self, *, status: str, stack: int) -> bool:
        return status in self.ready_statuses and stack > 0

    def next_deal_in(self, *, ready: int) -> float | None:
        if not self.enough_to_deal(ready):
            return None
        return float(settings.RAMINO_NEXT_ROUND_DELAY_SECONDS)

    def return_stack(self, *, seat: Seat, table: Table, account: Account) -> None:
        to_wallet(seat=seat, table=table, account=account)

    def release(self, *, seat: Seat, table: Table) -> None:
        cash_out(seat=seat, table=table, policy=self)

    def dealt(self, *, table: Table, round_: Round) -> None:
        return None

    def stacked_deal(self, *, table: Table, number: int) -> StackedDeal | None:
        return None

    def seat_freed(self, *, table: Table, seat: Seat) -> None:
        return None

    def round_settled(self, *, table: Table, round_id: int) -> None:
        return None  # the next deal is scheduled by `next_deal_in`


RING = RingTablePolicy()


_factories: dict[str, PolicyFactory] = {RING_TABLES: lambda table: RING}
_change_hooks: dict[str, ChangeHook] = {}


def register(kind: str, factory: PolicyFactory) -> None:
    """Tables of `kind` play by the policy `factory` makes. Called when the app is ready (`TournamentsConfig.ready`);
    registering a kind again with another factory is refused (two kinds would share a name)."""
    known = _factories.get(kind)
    if known is not None and known is not factory:
        raise ValueError(f"a table policy is already registered for {kind!r} tables")
    _factories[kind] = factory


def register_change_hook(kind: str, hook: ChangeHook) -> None:
    """After every change to a running round at a table of `kind`: `hook(game=, table=, state=)`."""
    known = _change_hooks.get(kind)
    if known is not None and known is not hook:
        raise ValueError(f"a change hook is already registered for {kind!r} tables")
    _change_hooks[kind] = hook


def change_hook(table: Table) -> ChangeHook | None:
    return _change_hooks.get(table_kind(table))


def registered_kinds() -> frozenset[str]:
    return frozenset(_factories)


def table_kind(table: Table) -> str:
    """A ring table, a tournament's (whatever the tournament's kind: its own registry says) or a practice
    table."""
    if table.tournament_id is not None:
        return TOURNAMENT_TABLES
    return PRACTICE_TABLES if table.practice else RING_TABLES


def policy_for(table: Table) -> TablePolicy:
    """The policy of `table`'s kind (`register`); a kind without one is a configuration error, said so."""
    kind = table_kind(table)
    factory = _factories.get(kind)
    if factory is None:
        raise UnknownTableKind(
            f"table {table.pk} is a {kind!r} table and no policy is registered for {kind!r} tables "
            f"(registered: {', '.join(sorted(_factories))}); a kind of table registers its policy when the "
            "app is ready (tournaments.apps.TournamentsConfig.ready)"
        )
    return factory(table)

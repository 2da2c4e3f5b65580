"""Helpers of the rebuy, add-on and knockout tests: bots that rebuy and take the add-on while a tournament is
driven in-process (`multi_table_driver.drive`), and the site-chip totals every such tournament must keep."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.db.models import Sum

from devtools.format_bots import act_at_table
from ledger.models import Account, AccountKind, Transfer, TransferKind
from tournaments.live.models import Game, Seat
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament.entry_payments import bounty_account
from tournaments.tournament.models import Tournament, TournamentEntry


def bots(
    tournament_id: int, rng: random.Random, *, rebuy_odds: float, addon_odds: float
) -> Callable[..., None]:
    """An `after_message` hook of `multi_table_driver.drive`: after each table's job its players rebuy and take
    the add-on as the odds say (`devtools.format_bots`)."""

    def act(name: str, args: list[object]) -> None:
        if name == TABLE_ROUND_OVER:
            act_at_table(tournament_id, int(str(args[1])), rng, rebuy_odds=rebuy_odds, addon_odds=addon_odds)

    return act


def paid_in(tournament: Tournament, why: str) -> int:
    """The costs (to the pool) of the rebuys or add-ons (`why`) paid in the tournament."""
    total = 0
    for t in Transfer.objects.filter(tournament_id=tournament.pk, kind=TransferKind.TOURNAMENT_BUY_IN):
        if t.computation.get("why") == why:
            total += int(t.computation["cost"])
    return total


def bounties_paid(tournament: Tournament) -> int:
    return int(
        TournamentEntry.objects.filter(tournament=tournament).aggregate(s=Sum("bounties_won"))["s"] or 0
    )


def bounty_balance(tournament: Tournament) -> int:
    return Account.objects.get(pk=bounty_account(tournament).pk).balance


def zero_seats(tournament: Tournament) -> int:
    return Seat.objects.filter(
        table__tournament=tournament,
        stack_account__kind=AccountKind.SEAT_STACK,
        stack_account__balance__lte=0,
    ).count()


def fund_bounties(tournament: Tournament, entries: dict[str, TournamentEntry], bounty: int) -> None:
    """Entries seated by `multi_table.helpers.seated` (who paid nothing) given `bounty` each, the house paying it into
    the tournament's bounty account as their buy-ins would have."""
    from ledger.services import accounts, postings

    postings.post_transfer(
        kind=TransferKind.ADJUSTMENT,
        legs=[
            (accounts.get_house_account(kind=AccountKind.HOUSE_CASHIER), -bounty * len(entries)),
            (bounty_account(tournament), bounty * len(entries)),
        ],
        idempotency_key=f"test:{tournament.pk}:bounties",
        reason="test bounties",
        posted_by_system="tests",
    )
    TournamentEntry.objects.filter(pk__in=[e.pk for e in entries.values()]).update(bounty=bounty)


def play(monkeypatch: Any, table: Any, result: Any) -> Any:
    """Deal `table`'s round now, ended at once with `result` (`multi_table.helpers.fixed_result`); answers it."""
    from django.utils import timezone

    from tournaments.live.messaging import dispatch
    from tournaments.live.rounds import start as round_start

    monkeypatch.setattr(round_start, "instant_result", result)
    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk, next_round_at__isnull=False).update(next_round_at=timezone.now())
    with dispatch.captured():
        round_ = round_start.start_round(game_id=game.pk)
    assert round_ is not None
    round_.refresh_from_db()
    assert round_.settled
    return round_


def job(tournament: Tournament, table: Any, round_id: int | None) -> str:
    from tournaments.live.messaging import dispatch
    from tournaments.multi_table import progress

    with dispatch.captured():
        return progress.after_table_round(tournament_id=tournament.pk, table_id=table.pk, round_id=round_id)


def deal_due(table: Any) -> list[tuple[str, list[Any]]]:
    """The table's scheduled deal, run now: answers the messages it sent (no round when it holds the deal)."""
    from django.utils import timezone

    from tournaments.live.messaging import dispatch
    from tournaments.live.rounds import start as round_start

    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk).update(next_round_at=timezone.now())
    with dispatch.captured() as queue:
        round_start.start_round(game_id=game.pk)
    return list(queue)

"""A round of a ring table recorded as live play leaves it once over (its row, its players' rows and, when
chips moved, its settlement posted between the seats' stacks through the ledger), without playing its moves:
for tests about what was played (the grant's play-through, the integrity job), not how."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from ledger.models import TransferKind
from ledger.services import postings
from tournaments.live.models import SEATED_STATUSES, Game, Round, RoundPlayer, Seat


def record_round(table_id: int, *, payments: Sequence[tuple[str, str, int]] = ()) -> Round:
    """A settled round of everyone seated at the table; `payments`: (payer, payee, chips)."""
    game = Game.objects.get(table_id=table_id)
    seats = list(
        Seat.objects.filter(table_id=table_id, status__in=SEATED_STATUSES)
        .select_related("player", "stack_account")
        .order_by("number")
    )
    names = [s.player.get_username() for s in seats]
    round_ = Round.objects.create(
        game=game,
        number=Round.objects.filter(game=game).count() + 1,
        players=names,
        seat_numbers={s.player.get_username(): s.number for s in seats},
        dealer=0,
        deal_commitment="recorded",
        stacks={s.player.get_username(): s.stack_account.balance for s in seats},
        scores={},
        transfers=[{"from": a, "to": b, "amount": c, "kind": "settlement"} for a, b, c in payments],
        settled=True,
        ended_at=timezone.now(),
    )
    RoundPlayer.objects.bulk_create(RoundPlayer(round=round_, user=s.player) for s in seats)
    stack = {s.player.get_username(): s.stack_account for s in seats}
    net: dict[str, int] = {}
    for payer, payee, chips in payments:
        net[payer] = net.get(payer, 0) - chips
        net[payee] = net.get(payee, 0) + chips
    legs: list[tuple[Any, int]] = [(stack[name], amount) for name, amount in net.items() if amount]
    if legs:
        postings.post_transfer(
            kind=TransferKind.SETTLEMENT,
            legs=legs,
            idempotency_key=f"round:{round_.pk}:settle",
            reason=f"round {round_.number} at table {table_id}",
            table_id=table_id,
            round_id=round_.pk,
            computation={"recorded": True},
            posted_by_system="tests",
        )
    return round_

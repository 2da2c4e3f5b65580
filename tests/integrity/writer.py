"""Simulated tables (devtools.integrity_simulation) written into the database as live play leaves them: a private table
and its seats (with an address), each round's row, its moves in the move log, and its settlement posted
through the ledger's service, so that the integrity job reads them as it reads real play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from devtools.integrity_simulation import SimTable
from ledger.models import AccountKind, TransferKind
from ledger.services import accounts, postings
from tests.factories import TableFactory, fund
from tournaments.live.models import Game, MoveLog, Round, Seat, SeatStatus

BUY_IN = 50_000


def write_table(
    sim: SimTable, *, addresses: Mapping[str, str] | None = None, timed_out: Sequence[str] = ()
) -> int:
    """The table's id. `timed_out`: players whose every move the server played (as after a timeout)."""
    User = get_user_model()
    users = {}
    for name in sim.players:
        users[name], _ = User.objects.get_or_create(username=name)
    table = TableFactory.create(
        private=True, seats=max(2, len(sim.players)), max_buy_in=BUY_IN, creator=users[sim.players[0]]
    )
    game = Game.objects.get(table=table)
    stacks = {}
    for number, name in enumerate(sim.players):
        fund(users[name], BUY_IN)
        account = accounts.open_account(
            kind=AccountKind.SEAT_STACK,
            chip_type="site",
            reference=f"table:{table.pk}:seat:{number}:1",
            user=users[name],
        )
        postings.move_chips(
            source=accounts.get_wallet(user=users[name]),
            destination=account,
            amount=BUY_IN,
            kind=TransferKind.BUY_IN,
            idempotency_key=f"sim:{table.pk}:{name}:buy_in",
            reason="simulated buy-in",
            table_id=table.pk,
        )
        Seat.objects.create(
            table=table,
            player=users[name],
            number=number,
            stack_account=account,
            status=SeatStatus.ACTIVE,
            address=(addresses or {}).get(name, ""),
        )
        stacks[name] = account
    version = 0
    for number, facts in enumerate(sim.rounds, start=1):
        round_ = Round.objects.create(
            game=game,
            number=number,
            players=list(facts.players),
            seat_numbers={p: i for i, p in enumerate(sim.players)},
            dealer=0,
            deal_commitment="simulated",
            stacks={},
            scores={},
            transfers=[
                {"from": p.payer, "to": p.payee, "amount": p.amount, "kind": "settlement"}
                for p in facts.payments
            ],
            settled=True,
            ended_at=timezone.now(),
        )
        logs = []
        for player, move in facts.moves:
            version += 1
            server = player in timed_out
            logs.append(
                MoveLog(
                    round=round_,
                    game=game,
                    player=player,
                    user=None if server else users[player],
                    move=move,
                    version=version,
                    server_played=server,
                )
            )
        MoveLog.objects.bulk_create(logs)
        net: dict[str, int] = {}
        for p in facts.payments:
            net[p.payer] = net.get(p.payer, 0) - p.amount
            net[p.payee] = net.get(p.payee, 0) + p.amount
        legs: list[tuple[Any, int]] = [(stacks[name], amount) for name, amount in net.items() if amount]
        if legs:
            postings.post_transfer(
                kind=TransferKind.SETTLEMENT,
                legs=legs,
                idempotency_key=f"round:{round_.pk}:settle",
                reason=f"simulated round {number}",
                table_id=table.pk,
                round_id=round_.pk,
                computation={"simulated": True},
                posted_by_system="tests.integrity",
            )
    return table.pk

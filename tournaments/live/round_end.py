"""The end of a round: its result recorded, settled by PCR through the ledger, the seats released, the next
deal scheduled (or the game closed with its table)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction

from database import rows
from ledger.models import Account, TransferKind
from ledger.services import postings
from ledger.settlement import pcr_settlement
from operations import metrics
from tournaments.live import engine_io
from tournaments.live import policy as table_policy
from tournaments.live.between_rounds import close_game, schedule_round_start
from tournaments.live.clocks import charge_time_bank
from tournaments.live.engine_io import RoundState
from tournaments.live.game_locks import seats_with_stacks
from tournaments.live.game_log import add_event
from tournaments.live.models import Game, GameStatus, Round, SeatStatus, Table, TableStatus
from tournaments.live.policy import AfterRound, TablePolicy
from tournaments.live.seats import cash_out

logger = logging.getLogger(__name__)

# What `finish_round` writes to the round row.
ROUND_END_FIELDS = ("result", "scores", "ended_at", "transfers", "settled")
# The `kind` of a round's settlement rows (its `transfers`, the `round_over` event's): the ledger transfer they
# belong to, the round's settlement or its bonus settlement.
ROW_KINDS = ("settlement", "bonus")


def _from_dealers_left(round_: Round) -> list[str]:
    """Players from the dealer's left (the settlement's order for leftover chips)."""
    players = list(round_.players)
    start = (round_.dealer + 1) % len(players)
    return players[start:] + players[:start]


def _post_settlement(
    *,
    kind: str,
    key: str,
    table: Table,
    policy: TablePolicy,
    round_: Round,
    scores: Mapping[str, int],
    stacks: Mapping[str, int],
    accounts: Mapping[str, Account],
    reason: str,
    tie_keys: Mapping[str, tuple[Any, ...]] | None = None,
) -> list[dict[str, Any]]:
    seat_order = _from_dealers_left(round_)
    settlement = pcr_settlement(
        scores={p: int(scores.get(p, 0)) for p in seat_order},
        pcr=policy.round_pcr(table, round_),
        stacks={p: int(stacks[p]) for p in seat_order},
        seat_order=seat_order,
        tie_keys=tie_keys,
    )
    net: dict[str, int] = dict.fromkeys(seat_order, 0)
    for payer, payee, chips in settlement.transfers:
        net[payer] -= chips
        net[payee] += chips
    legs = [(accounts[p], amount) for p, amount in net.items() if amount]
    if legs:
        computation = {**settlement.computation(), **policy.settlement_record(table, round_)}
        postings.post_transfer(
            kind=kind,
            legs=legs,
            idempotency_key=key,
            reason=reason,
            table_id=table.pk,
            round_id=round_.pk,
            computation=computation,
            posted_by_system="tournaments.settle_round",
        )
    label = ROW_KINDS[1] if kind == TransferKind.BONUS_SETTLEMENT else ROW_KINDS[0]
    return [
        {"from": payer, "to": payee, "amount": chips, "kind": label}
        for payer, payee, chips in settlement.transfers
    ]


def finish_round(
    *, game: Game, table: Table, round_: Round, state: RoundState, now: datetime
) -> list[tuple[str, list[Any]]]:
    """Record the result, settle by PCR, then what the table's policy says: release or sit out seats, schedule
    the next round (a closing table cashes every seat out and closes the game instead).

    Returns the round row's UPDATE, which the caller writes with the game row (the round is read by nobody
    before the commit); the game's new fields are left on `game` for the caller to store likewise."""
    charge_time_bank(game=game, table=table, round_=round_, now=now)
    ended = engine_io.result(state)
    assert ended is not None  # `advance.settle_state` ends the round only then
    return settle_result(game=game, table=table, round_=round_, result=engine_io.result_dict(ended), now=now)


def settle_result(
    *, game: Game, table: Table, round_: Round, result: dict[str, Any], now: datetime
) -> list[tuple[str, list[Any]]]:
    """The end of a round from its result (as `engine_io.result_dict` gives it): a played round's, or the
    drawn one of an instant round (`instant_rounds`). See `finish_round`."""
    policy = table_policy.policy_for(table)
    round_.result = result
    round_.scores = result["scores"]
    round_.ended_at = now
    seated = seats_with_stacks(table)
    seats = {seat.player.get_username(): seat for seat in seated}
    # The same Account objects as the seats': the ledger leaves the new balances on them.
    accounts = {p: seats[p].stack_account for p in round_.players if p in seats}
    transfers: list[dict[str, Any]] = []
    if not policy.settles_chips:
        pass  # points only (a one-table tournament): its job totals them from the round's result
    elif not result["redeal"] and result["scores"] and len(accounts) == len(round_.players):
        transfers += _post_settlement(
            kind=TransferKind.SETTLEMENT,
            key=f"round:{round_.pk}:settle",
            table=table,
            policy=policy,
            round_=round_,
            scores=result["scores"],
            stacks=round_.stacks,
            accounts=accounts,
            reason=f"round {round_.number} of table {table.pk}",
            tie_keys=policy.tie_break_keys(result=result),
        )
        bonus_points: dict[str, int] = {}
        for bonus in result["bonuses"]:
            bonus_points[bonus["player"]] = bonus_points.get(bonus["player"], 0) + int(bonus["points"])
        if any(bonus_points.values()):
            # The bonus is its own settlement, capped by what each stack holds after the round's.
            transfers += _post_settlement(
                kind=TransferKind.BONUS_SETTLEMENT,
                key=f"round:{round_.pk}:bonus",
                table=table,
                policy=policy,
                round_=round_,
                scores=bonus_points,
                stacks={p: a.balance for p, a in accounts.items()},
                accounts=accounts,
                reason=f"bonus of round {round_.number} of table {table.pk}",
            )
    elif len(accounts) != len(round_.players):
        logger.error("round %s: a player of the round has no seat; not settled", round_.pk)
    round_.transfers = transfers
    round_.settled = True
    add_event(
        game,
        round_,
        "round_over",
        {
            "round": round_.number,
            "scores": result["scores"],
            "game_points": result["game_points"],
            "bonuses": result["bonuses"],
            "redeal": result["redeal"],
            "transfers": transfers,
            "deal_commitment": round_.deal_commitment,
            "deck": round_.deck,
            "salt": round_.salt,
        },
    )
    ready = 0
    closing = table.status == TableStatus.CLOSED
    for seat in seated:
        stack = seat.chips
        fate = None if closing else policy.after_round(status=seat.status, stack=stack)
        if fate is None:
            cash_out(seat=seat, table=table, policy=policy)
        elif fate is AfterRound.RELEASED:
            policy.release(seat=seat, table=table)
        else:
            if fate is AfterRound.SITS_OUT:
                seat.status = SeatStatus.SITTING_OUT
                seat.save(update_fields=["status"])
            if policy.is_ready(status=seat.status, stack=stack):
                ready += 1
    game.status = GameStatus.WAITING
    game.turn_player = ""
    game.turn_started_at = None
    game.turn_deadline = None
    game.claims_deadline = None
    game.next_round_at = None
    if closing:
        close_game(game=game, table=table, round_=round_)
    else:
        schedule_round_start(game=game, table=table, policy=policy, ready=ready)
    policy.round_settled(table=table, round_id=round_.pk)
    transaction.on_commit(lambda: metrics.round_settled(game=table.game))
    # What the end of a round changes (the time bank is saved by `charge_time_bank`); the deal and the
    # players stay as they were written at the start.
    # docs/performance.md#hand-written-statements: round-end (rides in the move's one write statement).
    return [rows.update_sql(round_, ROUND_END_FIELDS)]

"""The end of a round: its result recorded, settled by PCR through the ledger, the seats released, the next
deal scheduled (or the game closed with its table)."""

from __future__ import annotations

import functools
import logging
from datetime import datetime
from typing import Any

from django.db import transaction

from database import rows
from ledger.models import TransferKind
from ledger.services import postings
from ledger.settlement import pcr_settlement
from operations import metrics
from tournaments.engine import RoundState
from tournaments.live.clocks.arming import charge_time_bank
from tournaments.live.models import Game, GameStatus, Round, SeatStatus, Table, TableStatus
from tournaments.live.rounds import results as round_results
from tournaments.live.rounds.between import close_game, schedule_round_start
from tournaments.live.storage.events import add_event
from tournaments.live.storage.locks import seats_with_stacks
from tournaments.live.tables import policy as table_policy
from tournaments.live.tables.policy import AfterRound
from tournaments.live.tables.seats import cash_out

logger = logging.getLogger(__name__)

# What `finish_round` writes to the round row.
ROUND_END_FIELDS = ("result", "scores", "ended_at", "transfers", "settled")
# The `kind` of a round's settlement rows (its `transfers`, the `round_over` event's): the ledger transfer they
# belong to, the round's settlement or its bonus settlement.
ROW_KINDS = ("settlement", "bonus")


def finish_round(
    *, game: Game, table: Table, round_: Round, state: RoundState, now: datetime
) -> list[tuple[str, list[Any]]]:
    """Record the result, settle by PCR, then what the table's policy says: release or sit out seats, schedule
    the next round (a closing table cashes every seat out and closes the game instead).

    Returns the round row's UPDATE, which the caller writes with the game row (the round is read by nobody
    before the commit); the game's new fields are left on `game` for the caller to store likewise."""
    charge_time_bank(game=game, table=table, round_=round_, now=now)
    ended = state.result
    assert ended is not None  # `advance.settle_state` ends the round only then
    return settle_result(
        game=game, table=table, round_=round_, result=round_results.result_dict(ended), now=now
    )


def settle_result(
    *, game: Game, table: Table, round_: Round, result: dict[str, Any], now: datetime
) -> list[tuple[str, list[Any]]]:
    """The end of a round from its result (as `results.result_dict` gives it): a played round's, or the
    drawn one of an instant round (`instant_rounds`). See `finish_round`."""
    round_.result = result
    round_.scores = result["scores"]
    round_.ended_at = now
    seated = seats_with_stacks(table)
    seats = {seat.player.get_username(): seat for seat in seated}
    # The same Account objects as the seats': the ledger leaves the new balances on them.
    accounts = {p: seats[p].stack_account for p in round_.players if p in seats}
    policy = table_policy.policy_for(table)
    settles = policy.settles_chips and not result["redeal"] and bool(result["scores"])
    settles = settles and len(accounts) == len(round_.players)
    # The policy asked once: everything below decides by its answer.
    answer = policy.round_end(table=table, round_=round_, result=result, seated=len(seated), settles=settles)
    transfers: list[dict[str, Any]] = []
    if settles:
        # Players from the dealer's left (the settlement's order for leftover chips).
        start = (round_.dealer + 1) % len(round_.players)
        order = [*round_.players[start:], *round_.players[:start]]
        settlement = pcr_settlement(
            scores={p: int(result["scores"].get(p, 0)) for p in order},
            pcr=answer.pcr,
            stacks={p: int(round_.stacks[p]) for p in order},
            seat_order=order,
            tie_keys=answer.tie_keys,
        )
        rounds = [(TransferKind.SETTLEMENT, "settle", "", settlement, settlement.computation())]
        net = dict.fromkeys(order, 0)
        for payer, payee, chips in settlement.transfers:
            net[payer] -= chips
            net[payee] += chips
        bonus_points = dict.fromkeys(order, 0)
        for bonus in result["bonuses"]:
            bonus_points[bonus["player"]] = bonus_points.get(bonus["player"], 0) + int(bonus["points"])
        if any(bonus_points.values()):
            # The bonus is its own settlement, capped by what each stack holds after the round's.
            bonus = pcr_settlement(
                scores={p: int(bonus_points.get(p, 0)) for p in order},
                pcr=answer.pcr,
                stacks={p: int(accounts[p].balance) + net[p] for p in order},
                seat_order=order,
                tie_keys=None,
            )
            rounds.append((TransferKind.BONUS_SETTLEMENT, "bonus", "bonus of ", bonus, bonus.computation()))
        wanted: list[postings.Posting] = []
        for kind, suffix, prefix, computed, computation in rounds:
            net = dict.fromkeys(order, 0)
            for payer, payee, chips in computed.transfers:
                net[payer] -= chips
                net[payee] += chips
                label = ROW_KINDS[1] if kind == TransferKind.BONUS_SETTLEMENT else ROW_KINDS[0]
                transfers.append({"from": payer, "to": payee, "amount": chips, "kind": label})
            legs = [(accounts[p], amount) for p, amount in net.items() if amount]
            if legs:
                wanted.append(
                    postings.Posting(
                        kind=kind,
                        legs=legs,
                        idempotency_key=f"round:{round_.pk}:{suffix}",
                        reason=f"{prefix}round {round_.number} of table {table.pk}",
                        table_id=table.pk,
                        round_id=round_.pk,
                        computation={**computation, **answer.record},
                        posted_by_system="tournaments.settle_round",
                    )
                )
        # The settlement and its bonus in one call to the ledger (each its own transfer, key and kind).
        postings.post_transfers(wanted)
    elif policy.settles_chips and len(accounts) != len(round_.players):
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
        chips = seat.stack_account_id is not None and seat.stack_account.balance > 0
        fate = None if closing else answer.fates[(seat.status, chips)]
        if fate is None:
            cash_out(seat=seat, table=table, policy=policy)
        elif fate is AfterRound.RELEASED:
            policy.release(seat=seat, table=table)
        else:
            if fate is AfterRound.SITS_OUT:
                seat.status = SeatStatus.SITTING_OUT
                seat.save(update_fields=["status"])
            if (seat.status, chips) in answer.ready:
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
        schedule_round_start(game=game, table=table, wait=answer.waits[ready])
    if answer.acts_when_settled:
        policy.round_settled(table=table, round_id=round_.pk)
    # The metric itself runs at the commit (no closure of this module in between).
    transaction.on_commit(functools.partial(metrics.round_settled, game=table.game))
    # What the end of a round changes (the time bank is saved by `charge_time_bank`); the deal and the
    # players stay as they were written at the start.
    # docs/performance.md#hand-written-statements: round-end (rides in the move's one write statement).
    return [rows.update_sql(round_, ROUND_END_FIELDS)]

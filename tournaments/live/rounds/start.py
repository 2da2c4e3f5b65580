"""Dealing a table's next round (a Celery task's job, and the tests'), and putting a table that cannot deal
in error."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from database.faults import TRANSIENT_ERRORS
from tournaments import engine
from tournaments.engine import new_round
from tournaments.errors import PlayError
from tournaments.live.models import SEATED_STATUSES, GameStatus, Round, RoundPlayer, Seat, TableStatus
from tournaments.live.rounds.advance import settle_state
from tournaments.live.rounds.between import wind_down
from tournaments.live.rounds.end import settle_result
from tournaments.live.rounds.instant import instant_result
from tournaments.live.storage.events import add_event, store_game
from tournaments.live.storage.locks import lock_game
from tournaments.live.tables import policy as table_policy
from tournaments.live.tables import settings as table_settings

logger = logging.getLogger(__name__)

# A round start that fails with one of these (database/faults.py) did nothing and may succeed in a moment: it
# does not put the table in error; the task retries it, and after that the beat sweeper.


def start_round(*, game_id: int) -> Round | None:
    """Deal the next round if the table has two players with chips; else wait. Idempotent.

    A failure retrying cannot cure (a table whose settings no longer pass, an exception in dealing) puts the
    table in error instead of leaving it to the sweeper to fail again every 30 s with the chips held."""
    try:
        return _deal(game_id=game_id)
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:
        logger.exception("round start of game %s failed; the table is put in error", game_id)
        fail_table(game_id=game_id, error=_failure(exc))
        return None


def _failure(exc: Exception) -> str:
    """What a failed start stores and shows: our own validation's message, else only the exception's type
    (another message might quote anything, a deal included; the log has it)."""
    if isinstance(exc, PlayError):
        text = f"{exc.code}: {exc.message}"
    else:
        text = f"round start failed: {type(exc).__name__}"
    return text[:500]


def fail_table(*, game_id: int, error: str) -> None:
    """Put the table in error: every seat cashed out, the game closed with a `table_error` event. Does
    nothing once a round was dealt or the game closed meanwhile."""
    with transaction.atomic():
        locked = lock_game(game_id)
        if locked is None:
            return
        table, game = locked
        if game.status != GameStatus.WAITING:
            return
        table.status = TableStatus.ERROR
        table.error = error or "round start failed"
        table.save(update_fields=["status", "error"])
        wind_down(game=game, table=table)


def _deal(*, game_id: int) -> Round | None:
    with transaction.atomic():
        locked = lock_game(game_id)
        if locked is None:
            return None
        table, game = locked
        if game.status != GameStatus.WAITING:
            return None
        if table.status == TableStatus.CLOSED:
            wind_down(game=game, table=table)
            return None
        now = timezone.now()
        if game.next_round_at is not None and game.next_round_at > now + timedelta(seconds=0.5):
            # Early (a duplicate or a re-armed message): the scheduled one will come.
            return None
        policy = table_policy.policy_for(table)
        if policy.deals_only_when_scheduled and game.next_round_at is None:
            return None  # not scheduled by the tournament's job (a late or duplicated message)
        if policy.holds_deal(game=game, now=now):
            return None  # the policy sent what comes next
        seats = list(
            Seat.objects.select_for_update(of=("self",))
            .filter(table=table, status__in=SEATED_STATUSES)
            .select_related("player", "stack_account")
            .order_by("number")
        )
        playing: list[Seat] = []
        for seat in seats:
            if not policy.deals_in(seat=seat, stack=seat.chips):
                policy.release(seat=seat, table=table)
            else:
                status = policy.status_at_deal(seat.status)
                if seat.status != status:
                    seat.status = status
                    seat.save(update_fields=["status"])
                playing.append(seat)
        game.next_round_at = None
        if not policy.enough_to_deal(len(playing)):
            game.save(update_fields=["next_round_at", "updated_at"])
            return None
        numbers = [seat.number for seat in playing]
        # The round before (its result says whether the deal was refused).
        previous = game.current_round
        dealer = numbers.index(
            engine.next_dealer(
                game.dealer_seat,
                numbers,
                redeal=previous is not None and bool((previous.result or {}).get("redeal")),
            )
        )
        players = [seat.player.get_username() for seat in playing]
        table_settings.check_stored(table)
        rules = table_settings.build_rules(table.game, table.options)
        number = (game.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        stacked = policy.stacked_deal(table=table, number=number)
        if stacked is not None and stacked.dealer in players:
            dealer = players.index(stacked.dealer)
            state = new_round(rules, players=players, dealer=dealer, round_number=number, deck=stacked.deck)
        else:
            state = new_round(rules, players=players, dealer=dealer, round_number=number)
        # The deal's commitment, and its deck and salt: secret until the round is over.
        commitment, deck, salt = str(state.commitment), list(state.deck), str(state.salt)
        clocks = table_settings.clocks_for(table.options)
        round_ = Round.objects.create(
            game=game,
            number=number,
            players=players,
            seat_numbers={seat.player.get_username(): seat.number for seat in playing},
            dealer=dealer,
            deal_commitment=commitment,
            rules=rules.to_dict(),
            deck=deck,
            salt=salt,
            stacks={seat.player.get_username(): seat.chips for seat in playing},
            time_bank=dict.fromkeys(players, clocks.time_bank_seconds),
        )
        RoundPlayer.objects.bulk_create(
            [RoundPlayer(round=round_, user_id=seat.player_id) for seat in playing]
        )
        for seat in playing:
            if seat.timeouts_in_round:
                seat.timeouts_in_round = 0
                seat.save(update_fields=["timeouts_in_round"])
        game.dealer_seat = numbers[dealer]
        game.current_round = round_
        game.status = GameStatus.PLAYING
        game.turn_player = ""
        game.turn_started_at = None
        game.turn_deadline = None
        game.claims_deadline = None
        add_event(
            game,
            round_,
            "round_started",
            {
                "round": number,
                "players": players,
                "dealer": players[dealer],
                "deal_commitment": commitment,
            },
        )
        policy.dealt(table=table, round_=round_)
        if policy.instant_rounds:
            # A simulation's round: dealt as usual, then ended at once with drawn scores, settled like any.
            game.state = engine.state_to_dict(state)
            writes = settle_result(
                game=game, table=table, round_=round_, result=instant_result(players), now=now
            )
            store_game(game, before=writes)
            return round_
        settle_state(game=game, table=table, round_=round_, state=state, now=now)
        return round_

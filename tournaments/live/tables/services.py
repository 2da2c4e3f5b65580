"""Tables and seats: create, sit (buy-in and top-up), join by code, leave (cash-out)."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from accounts.selectors import is_guest
from ledger import stakes
from ledger.models import Account, AccountKind, TransferKind
from ledger.services import accounts, postings
from tournaments.errors import Conflict, Forbidden, InvalidRequest, NotFound, PlayCode, Unprocessable
from tournaments.fair_play import services as fair_play
from tournaments.live.clocks.arming import rearm_clock_now_if_turn
from tournaments.live.models import SEATED_STATUSES, Game, GameStatus, Seat, SeatStatus, Table, TableStatus
from tournaments.live.rounds.between import schedule_round_start_if_ready, wind_down
from tournaments.live.tables import grant_hold, seat_guards
from tournaments.live.tables import policy as table_policy
from tournaments.live.tables import settings as table_settings
from tournaments.live.tables.seats import cash_out

# No 0/O, 1/I/L, 5/S or 2/Z: codes are read aloud and typed from a phone.
CODE_ALPHABET = "346789ABCDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 8  # 27**8: about 38 bits


def generate_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    return "".join(code.split()).upper()


def create_table(
    *,
    user: User,
    game: str,
    options: dict[str, Any],
    seats: int,
    pcr: int,
    min_buy_in: int,
    max_buy_in: int,
    multiplier: int = 1,
    private: bool = False,
    buy_in: int | None = None,
    address: str = "",
) -> Table:
    """A new table and its game. With `buy_in`, its creator is seated at it in the same transaction, exactly as
    `sit` seats anyone (the chips move from the wallet through the ledger; a refusal creates nothing). Guests
    of the demo hold no chips and create no table (403 `table.guest`)."""
    if not private and not getattr(user, "is_superuser", False):
        raise Forbidden("Only admins create public tables; create a private table instead.")
    if is_guest(user=user):
        raise Forbidden(
            "A guest plays without chips: create an account to open a table.", code=PlayCode.TABLE_GUEST
        )
    checked = table_settings.validate(
        game=game,
        options=options,
        seats=seats,
        pcr=pcr,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
        multiplier=multiplier,
    )

    def write() -> Table:
        table = Table.objects.create(
            **asdict(checked),
            private=private,
            code=generate_code() if private else None,
            created_by=user,
        )
        Game.objects.create(table=table)
        return table

    with transaction.atomic():
        table = _drawing_codes_again(private=private, write=write)
        if buy_in is not None:
            sit(user=user, table_id=table.pk, buy_in=buy_in, address=address)
    return table


def _drawing_codes_again(*, private: bool, write: Callable[[], Table]) -> Table:
    """Run `write` in a transaction; a private table's freshly drawn code may collide with another table's
    (the unique index refuses it), so a refusal then means: draw again."""
    for _attempt in range(10):
        try:
            with transaction.atomic():
                return write()
        except IntegrityError:
            if not private:
                raise
    raise Conflict("Could not allocate a table code; try again.", code=PlayCode.TABLE_CODE_EXHAUSTED)


def _lock_table(table_id: int) -> tuple[Table, Game]:
    """Lock order everywhere: table, then game, then seats, then ledger accounts (by id)."""
    try:
        table = Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound("No such table.", code=PlayCode.TABLE_NOT_FOUND) from None
    game = Game.objects.select_for_update().get(table=table)
    return table, game


def _current_seat(table: Table, user: User) -> Seat | None:
    return (
        Seat.objects.select_for_update(of=("self",))
        .filter(table=table, player=user, status__in=SEATED_STATUSES)
        .select_related("stack_account")
        .first()
    )


def _refuse_tournament_table(table: Table) -> None:
    """A tournament seats its entrants itself and plays them to the end: nobody sits down or leaves."""
    if table.tournament_id is not None:
        raise Conflict(
            "This table plays a tournament: register for the tournament instead.",
            code=PlayCode.TABLE_TOURNAMENT,
            details={"tournament": table.tournament_id},
        )


def _in_running_round(game: Game, username: str) -> bool:
    if game.status != GameStatus.PLAYING:
        return False
    current = game.rounds.order_by("-number").first()
    return current is not None and current.ended_at is None and username in current.players


def sit(*, user: User, table_id: int, buy_in: int, by_code: bool = False, address: str = "") -> Seat:
    """Sit down with `buy_in` chips from the wallet, or top up when already seated; `address` (the client's,
    kept on a new seat) is what the integrity job compares across accounts."""
    if isinstance(buy_in, bool) or not isinstance(buy_in, int) or buy_in < 1:
        raise InvalidRequest("buy_in must be a positive integer.", code=PlayCode.TABLE_INVALID_BUY_IN)
    with transaction.atomic():
        table, game = _lock_table(table_id)
        seat = _current_seat(table, user)
        # A private table is sat at by id only by those who may read it (its creator, its seated players);
        # anyone else needs its code (`join`), and learns nothing from a 404.
        if seat is None and table.private and not by_code and table.created_by_id != user.pk:
            raise NotFound("No such table.", code=PlayCode.TABLE_NOT_FOUND)
        _refuse_tournament_table(table)
        if table.practice:
            raise Conflict(
                "A practice table takes no chips: start a new practice table instead.",
                code=PlayCode.TABLE_PRACTICE,
            )
        if table.status == TableStatus.ERROR:
            raise Conflict(
                "The table is out of service: it could not deal.",
                code=PlayCode.TABLE_ERROR,
                details={"error": table.error},
            )
        if table.status != TableStatus.OPEN:
            raise Conflict("The table is closed.", code=PlayCode.TABLE_CLOSED)
        if is_guest(user=user):
            raise Forbidden(
                "A guest plays at practice tables only: create an account to sit at a table with chips.",
                code=PlayCode.TABLE_GUEST,
            )
        wallet = accounts.get_wallet(user=user)
        if table.private:
            _refuse_held_grant(user=user, wallet=wallet, buy_in=buy_in)
        if seat is not None:
            balance = seat.stack_account.balance
            if balance + buy_in > table.max_buy_in:
                raise Unprocessable(
                    "A top-up may bring the stack to at most %(max_buy_in)s chips.",
                    params={"max_buy_in": table.max_buy_in},
                    code=PlayCode.TABLE_BUY_IN_OUT_OF_RANGE,
                    details={"stack": balance, "max_buy_in": table.max_buy_in},
                )
            stakes.refuse_stake(user=user, amount=buy_in, kind=stakes.StakeKind.RING_TOP_UP)
            postings.move_chips(
                source=wallet,
                destination=seat.stack_account,
                amount=buy_in,
                kind=TransferKind.BUY_IN,
                idempotency_key=f"seat:{seat.pk}:top_up:{uuid.uuid4().hex}",
                reason=f"top-up at table {table.pk}",
                table_id=table.pk,
                posted_by=user,
            )
            if seat.status in (SeatStatus.LEAVING, SeatStatus.ABSENT):
                # Sitting again cancels a pending leave, and brings an absent player back.
                seat.status = SeatStatus.ACTIVE
                seat.timeouts_in_row = 0
            seat.save(update_fields=["status", "timeouts_in_row"])
        else:
            # A new seat, refused while repeated abandonment bars the player (a top-up is not a new seat).
            fair_play.refuse_if_barred(user=user)
            if table.private:
                # Nor at a private table whose creator blocked the player (docs/rules.md "Chat").
                seat_guards.refuse_private_seat(creator_id=table.created_by_id, user=user)
            stakes.refuse_stake(user=user, amount=buy_in, kind=stakes.StakeKind.RING_BUY_IN)
            if not table.min_buy_in <= buy_in <= table.max_buy_in:
                raise Unprocessable(
                    "The buy-in must be between %(min_buy_in)s and %(max_buy_in)s chips.",
                    params={"min_buy_in": table.min_buy_in, "max_buy_in": table.max_buy_in},
                    code=PlayCode.TABLE_BUY_IN_OUT_OF_RANGE,
                    details={"min_buy_in": table.min_buy_in, "max_buy_in": table.max_buy_in},
                )
            taken = set(
                Seat.objects.filter(table=table, status__in=SEATED_STATUSES).values_list("number", flat=True)
            )
            free = [n for n in range(table.seats) if n not in taken]
            if not free:
                raise Conflict("The table is full.", code=PlayCode.TABLE_FULL)
            number = free[0]
            sitting = Seat.objects.filter(table=table, number=number).count() + 1
            account = accounts.open_account(
                kind=AccountKind.SEAT_STACK,
                chip_type="site",
                reference=f"table:{table.pk}:seat:{number}:{sitting}",
                user=user,
            )
            seat = Seat.objects.create(
                table=table,
                player=user,
                number=number,
                stack_account=account,
                status=SeatStatus.SITTING_OUT,
                address=address[:64],
            )
            postings.move_chips(
                source=wallet,
                destination=account,
                amount=buy_in,
                kind=TransferKind.BUY_IN,
                idempotency_key=f"seat:{seat.pk}:buy_in",
                reason=f"buy-in at table {table.pk}",
                table_id=table.pk,
                posted_by=user,
            )
            if game.status != GameStatus.PLAYING:
                seat.status = SeatStatus.ACTIVE
                seat.save(update_fields=["status"])
        schedule_round_start_if_ready(game=game, table=table)
        seat.refresh_from_db()
        return seat


def _refuse_held_grant(*, user: User, wallet: Account, buy_in: int) -> None:
    """A buy-in at a private table takes only chips beyond the grants not yet played through
    (`grant_hold`). The wallet's row is locked first (after the table's, before the posting's), so two
    buy-ins at two private tables at once cannot both spend the same free chips."""
    hold = grant_hold.hold_of(user=user)
    if not hold.held:
        return
    balance = Account.objects.select_for_update().values_list("balance", flat=True).get(pk=wallet.pk)
    free = max(0, balance - hold.held)
    if buy_in > free:
        raise Unprocessable(
            "Chips the house gave you are played at public tables first: you may bring at most %(free)s "
            "chips to a private table.",
            params={"free": free},
            code=PlayCode.TABLE_GRANT_HELD,
            details={
                "held": hold.held,
                "free": free,
                "rounds_to_play": hold.rounds_to_play,
                "opponents_to_meet": hold.opponents_to_meet,
            },
        )


def join(*, user: User, code: str, buy_in: int, address: str = "") -> Seat:
    table = Table.objects.filter(code=normalize_code(code), private=True).first()
    if table is None:
        raise NotFound("No table has this code.", code=PlayCode.TABLE_NOT_FOUND)
    return sit(user=user, table_id=table.pk, buy_in=buy_in, by_code=True, address=address)


def update_table(
    *,
    table_id: int,
    game: str,
    options: dict[str, Any],
    seats: int,
    pcr: int,
    min_buy_in: int,
    max_buy_in: int,
    multiplier: int,
    private: bool,
) -> Table:
    """An admin's change of an open table (the next deal uses it; a running round keeps its own ruleset). Made
    private, it gets a code; made public, it loses it. The seated players must still fit."""
    checked = table_settings.validate(
        game=game,
        options=options,
        seats=seats,
        pcr=pcr,
        min_buy_in=min_buy_in,
        max_buy_in=max_buy_in,
        multiplier=multiplier,
    )

    def write() -> Table:
        table, _game = _lock_table(table_id)
        check_update(table=table, seats=checked.seats)
        for field, value in asdict(checked).items():
            setattr(table, field, value)
        if private != table.private:
            table.private = private
            table.code = generate_code() if private else None
        table.save(update_fields=[*asdict(checked), "private", "code"])
        return table

    return _drawing_codes_again(private=private, write=write)


def check_update(*, table: Table, seats: int) -> None:
    """What a change must respect beyond the settings themselves: an open table, room for who is seated."""
    if table.status != TableStatus.OPEN:
        raise Conflict(
            "The table is %(status)s; it cannot be changed.",
            params={"status": table.status},
            code=PlayCode.TABLE_NOT_OPEN,
        )
    taken = list(
        Seat.objects.filter(table=table, status__in=SEATED_STATUSES).values_list("number", flat=True)
    )
    if taken and max(taken) >= seats:
        raise InvalidRequest(
            "Seat %(seat)s is taken: the table needs at least %(minimum)s seats.",
            params={"seat": max(taken), "minimum": max(taken) + 1},
            code=PlayCode.TABLE_INVALID_SEATS,
            details={"field": "seats", "minimum": max(taken) + 1},
        )


def close_table(*, table_id: int) -> Table:
    """Close the table for good: nobody sits any more; between rounds every seat is cashed out at once, during
    a round once it is over and settled (the round plays out as any other). Closing a closed table only
    finishes what is left to do."""
    with transaction.atomic():
        table, game = _lock_table(table_id)
        if table.status != TableStatus.CLOSED:
            table.status = TableStatus.CLOSED
            table.save(update_fields=["status"])
        if game.status != GameStatus.PLAYING:
            wind_down(game=game, table=table)
    return table


def leave(*, user: User, table_id: int) -> Seat:
    """Cash out now, or, during a round the player is in, mark the seat `leaving` (the server plays it out)."""
    with transaction.atomic():
        table, game = _lock_table(table_id)
        _refuse_tournament_table(table)
        seat = _current_seat(table, user)
        if seat is None:
            if table.private:
                raise NotFound("No such table.", code=PlayCode.TABLE_NOT_FOUND)
            raise Conflict("You are not seated at this table.", code=PlayCode.SEAT_NOT_SEATED)
        if _in_running_round(game, user.get_username()):
            seat.status = SeatStatus.LEAVING
            seat.save(update_fields=["status"])
            rearm_clock_now_if_turn(game=game, table=table, username=user.get_username())
        else:
            cash_out(seat=seat, table=table, policy=table_policy.policy_for(table))
        return seat


def idle_minutes() -> float:
    return float(settings.RAMINO_PRIVATE_TABLE_IDLE_MINUTES)


def _idle_private_tables(*, now: datetime | None = None) -> QuerySet[Table]:
    """The open private tables (ring tables: neither practice nor a tournament's) where nobody has been seated
    for `RAMINO_PRIVATE_TABLE_IDLE_MINUTES`: nobody seated now, created before the cut-off, and nobody left
    after it."""
    cutoff = (now or timezone.now()) - timedelta(minutes=idle_minutes())
    seated = Seat.objects.filter(table=OuterRef("pk"), status__in=SEATED_STATUSES)
    left_since = Seat.objects.filter(table=OuterRef("pk"), left_at__gte=cutoff)
    return Table.objects.filter(
        ~Exists(seated),
        ~Exists(left_since),
        private=True,
        practice=False,
        tournament__isnull=True,
        status=TableStatus.OPEN,
        created_at__lt=cutoff,
    )


def close_idle_private_tables(*, now: datetime | None = None) -> int:
    """Close every private table nobody has sat at for the set time (the beat job, docs/tables.md "Private
    tables"), as an admin's close does; each is checked again under its lock, so a player sitting down
    meanwhile keeps it open. Answers how many closed."""
    closed = 0
    for table_id in list(_idle_private_tables(now=now).order_by("id").values_list("id", flat=True)):
        with transaction.atomic():
            _lock_table(table_id)
            if _idle_private_tables(now=now).filter(pk=table_id).exists():
                close_table(table_id=table_id)
                closed += 1
    return closed

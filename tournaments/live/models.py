"""Ring tables and live play: tables, seats, games, rounds and the move log.

Hidden information lives in `Game.state` (the engine state: hands, stock) and `Round.deck`/`Round.salt`;
nothing outside `tournaments.live.selectors` and the services reads them, and the admin never shows them
while a round runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.db.models import Q

if TYPE_CHECKING:
    from ledger.models import Account


class TableStatus(models.TextChoices):
    OPEN = "open", "open"
    CLOSED = "closed", "closed"
    # A round start failed for a reason that retrying cannot cure: every seat was cashed out, no round is dealt
    # any more (`Table.error` says why); an admin may close it.
    ERROR = "error", "error"


class SeatStatus(models.TextChoices):
    ACTIVE = "active", "active"
    LEAVING = "leaving", "leaving"
    ABSENT = "absent", "absent"
    SITTING_OUT = "sitting_out", "sitting out"
    LEFT = "left", "left"


# A seat in any of these holds its chair; `left` is history.
SEATED_STATUSES = (SeatStatus.ACTIVE, SeatStatus.LEAVING, SeatStatus.ABSENT, SeatStatus.SITTING_OUT)


class GameStatus(models.TextChoices):
    WAITING = "waiting", "waiting for players"
    PLAYING = "playing", "round running"
    CLOSED = "closed", "closed"


class Table(models.Model):
    game = models.CharField(max_length=32)
    options = models.JSONField(default=dict, blank=True)
    seats = models.PositiveSmallIntegerField()
    pcr = models.PositiveIntegerField()
    min_buy_in = models.BigIntegerField()
    max_buy_in = models.BigIntegerField()
    multiplier = models.PositiveIntegerField(default=1)
    private = models.BooleanField(default=False)
    code = models.CharField(max_length=16, null=True, blank=True, unique=True)
    status = models.CharField(max_length=16, choices=TableStatus.choices, default=TableStatus.OPEN)
    # Why a round start failed (status `error`; kept if the table is closed afterwards).
    error = models.CharField(max_length=500, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tables"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A tournament's table plays for its tournament (`live.policy.policy_for`); null at a ring table.
    tournament = models.ForeignKey(
        "Tournament", on_delete=models.PROTECT, null=True, blank=True, related_name="tables"
    )
    # A multi-table tournament's table in round-for-round play: the synchronized round it last dealt
    # (it deals again once the tournament's `sync_round` is past it).
    played_sync_round = models.PositiveIntegerField(default=0)
    # A multi-table tournament's table whose last round is settled and whose tournament job has not run yet:
    # it deals nothing until then (a deal first would release the seats left without chips before the job
    # busts them, and the job would find its round stale).
    awaiting_job = models.BooleanField(default=False, editable=False)
    # A practice table: one player against server bots, no chips, never listed (`tournaments.practice`).
    practice = models.BooleanField(default=False, editable=False)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(pcr__gt=0), name="table_pcr_positive"),
            models.CheckConstraint(condition=Q(multiplier__gt=0), name="table_multiplier_positive"),
            models.CheckConstraint(condition=Q(seats__gte=2), name="table_seats_at_least_two"),
            models.CheckConstraint(condition=Q(min_buy_in__gt=0), name="table_min_buy_in_positive"),
            models.CheckConstraint(
                condition=Q(max_buy_in__gte=models.F("min_buy_in")), name="table_buy_in_range"
            ),
            models.CheckConstraint(
                condition=(Q(private=True) & Q(code__isnull=False))
                | (Q(private=False) & Q(code__isnull=True)),
                name="table_private_has_code",
            ),
            models.CheckConstraint(
                condition=~Q(status="error") | ~Q(error=""), name="table_error_has_reason"
            ),
            models.CheckConstraint(
                condition=Q(practice=False) | (Q(private=False) & Q(tournament__isnull=True)),
                name="table_practice_is_its_own_kind",
            ),
        ]
        indexes = [
            # A multi-table tournament's deal asks whether another table awaits its job with busts pending
            # (`MultiTablePolicy.holds_deal`): the few such tables, not every table of the tournament.
            models.Index(fields=["tournament"], condition=Q(awaiting_job=True), name="table_awaiting_job"),
        ]

    def __str__(self) -> str:
        return f"table {self.pk} ({self.game})"


class Seat(models.Model):
    """One sitting of one player; a new row each time a player sits down after leaving."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seat_set")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()
    # The ledger account (kind seat_stack, reference "table:<t>:seat:<seat id>") holding the chips at the table;
    # null for a seat that never stakes (a practice table's seats, the bots' and the player's: no account is
    # opened for chips that are never there, docs/tables.md "Practice tables").
    # Typed as always there (the plugin would make it optional everywhere): only practice seats lack one, and
    # what may meet a practice seat reads `chips` or `stack_account_id`, never the account.
    stack_account: models.OneToOneField[Account | None, Account] = models.OneToOneField(  # type: ignore[misc]
        "ledger.Account", on_delete=models.PROTECT, related_name="seat", null=True, blank=True
    )
    status = models.CharField(max_length=16, choices=SeatStatus.choices, default=SeatStatus.SITTING_OUT)
    timeouts_in_row = models.PositiveIntegerField(default=0)
    timeouts_in_round = models.PositiveIntegerField(default=0)
    sat_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    # The client's network address when the player sat down (security.addresses; "" when unknown): the
    # integrity job's "shared address" signal reads it (docs/integrity.md).
    address = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["table_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"], condition=~Q(status="left"), name="seat_number_unique_at_table"
            ),
            models.UniqueConstraint(
                fields=["table", "player"], condition=~Q(status="left"), name="seat_player_unique_at_table"
            ),
            models.CheckConstraint(
                condition=Q(left_at__isnull=True) | Q(status="left"), name="seat_left_at_only_when_left"
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of table {self.table_id}"

    @property
    def chips(self) -> int:
        """The chips in front of the player: the stack account's balance, 0 for a seat that has none."""
        return 0 if self.stack_account_id is None else self.stack_account.balance


class Game(models.Model):
    """The live play of a table: one per table, spanning its rounds."""

    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="live_game")
    # The engine state of the current (or last) round, as serialized by the engine.
    state = models.JSONField(null=True, blank=True, editable=False)
    # Bumped by every change a client can observe (moves, round start and end); clocks carry it.
    version = models.PositiveIntegerField(default=0)
    dealer_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The running (or last) round, read along with the locked game row.
    current_round = models.ForeignKey(
        "Round", on_delete=models.PROTECT, null=True, blank=True, related_name="+", editable=False
    )
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.WAITING)
    turn_player = models.CharField(max_length=150, blank=True, default="")
    # The version at which the current turn's clock was armed: the turn clock carries it, so the moves
    # inside one turn (draw, melds, discard) need no new clock message.
    turn_version = models.PositiveIntegerField(default=0)
    # When the last turn clock message sent will fire. A client's move that starts a turn whose deadline is
    # no earlier sends none: that message, finding another turn running, re-arms the clock for it.
    clock_due_at = models.DateTimeField(null=True, blank=True, editable=False)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    claims_deadline = models.DateTimeField(null=True, blank=True)
    next_round_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"game {self.pk} of table {self.table_id}"


class Round(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    players = models.JSONField(default=list)  # usernames, clockwise seat order
    seat_numbers = models.JSONField(default=dict)  # username -> seat number
    dealer = models.PositiveSmallIntegerField()  # index into players
    deal_commitment = models.CharField(max_length=128)
    # The ruleset the round was dealt with (`Ruleset.to_dict`: {"preset", "options"}): an admin may change a
    # table's game and options between rounds, and a replay (`live.replays`) needs the round's own. Null for
    # rounds dealt before it was kept.
    rules = models.JSONField(null=True, blank=True, editable=False)
    # Secret until the round is over: never serialized or shown while `ended_at` is null.
    deck = models.JSONField(null=True, blank=True, editable=False)
    salt = models.CharField(max_length=128, blank=True, default="", editable=False)
    stacks = models.JSONField(default=dict)  # username -> chips at the table when the round began
    time_bank = models.JSONField(default=dict)  # username -> seconds of time bank left
    result = models.JSONField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    transfers = models.JSONField(default=list, blank=True)  # [{from, to, amount, kind}]
    settled = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_number_unique_in_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(settled=False) | Q(ended_at__isnull=False), name="round_settled_only_when_over"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of game {self.game_id}"

    @property
    def is_over(self) -> bool:
        return self.ended_at is not None


class RoundPlayer(models.Model):
    """A player of a round, by user: what `GET /me/rounds/` reads (a player's rounds newest first, by an index),
    since `Round.players` is a JSON list of usernames that no portable query filters. Written at the deal."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="player_rows", db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", db_index=False
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "user"], name="round_player_unique"),
        ]
        indexes = [models.Index(fields=["user", "-round"], name="round_player_newest")]

    def __str__(self) -> str:
        return f"user {self.user_id} in round {self.round_id}"


class GameEvent(models.Model):
    """What happened at each version, for /events/. `private` holds the parts only one player may see."""

    # No index of their own: (game, version) below serves every read by game, and nothing reads events by
    # round (rounds are never deleted); each index is one more write per event.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    version = models.PositiveIntegerField()
    round = models.ForeignKey(
        Round, on_delete=models.PROTECT, related_name="events", null=True, db_index=False
    )
    kind = models.CharField(max_length=32)
    public = models.JSONField(default=dict)
    private = models.JSONField(default=dict)  # username -> extra fields for that player only
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="event_version_unique_in_game"),
        ]

    def __str__(self) -> str:
        return f"event {self.version} ({self.kind}) of game {self.game_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("game events are append-only")
        super().save(*args, **kwargs)


class MoveLog(models.Model):
    """Every accepted move, append-only; with the first answer given, for idempotent replays."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="moves")
    # Covered by the unique (game, version) index below.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="moves", db_index=False)
    player = models.CharField(max_length=150)  # the engine's name for the player: the username
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    move = models.JSONField()
    version = models.PositiveIntegerField()  # the game version this move produced
    idempotency_key = models.CharField(max_length=255, blank=True, default="")
    request_hash = models.CharField(max_length=64, blank=True, default="")
    server_played = models.BooleanField(default=False)
    response = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="move_version_unique_in_game"),
            models.UniqueConstraint(
                fields=["user", "game", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="move_idempotency_key_unique",
            ),
            models.CheckConstraint(
                condition=Q(server_played=True) | Q(user__isnull=False), name="move_client_has_user"
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.version} by {self.player} in game {self.game_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("the move log is append-only")
        super().save(*args, **kwargs)


class IdempotentRequest(models.Model):
    """The first answer given under an `Idempotency-Key` by a request that has no record of its own: sit, join,
    leave (every answer) and moves (refusals only; an accepted move's answer is in its `MoveLog` row).

    Keyed as docs/api.md "Idempotency" scopes keys: (user, method, path, key). The row is inserted before the
    request runs, in the request's transaction, so that a concurrent request with the same key waits on the
    unique index until the first commits (then replays it) or rolls back (then runs itself). `status` is null
    only inside that transaction: a committed row always holds an answer."""

    # Covered by the unique index below, which leads with it.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    method = models.CharField(max_length=8)
    path = models.TextField()
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)  # sha256 of the request's canonical body
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    body = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "method", "path", "key"], name="idempotent_request_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} by user {self.user_id} (key {self.key[:16]})"

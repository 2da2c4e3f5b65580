"""Ring tables and live play: tables, seats, games, rounds and the move log.

Hidden information lives in `Game.state` (the engine state: hands, stock) and `Round.deck`/`Round.salt`;
nothing outside `tournaments.live.storage.selectors` and the services reads them, and the admin never shows them
while a round runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

if TYPE_CHECKING:
    from ledger.models import Account


class TableStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("table status", "open")
    CLOSED = "closed", pgettext_lazy("table status", "closed")
    # A round start failed for a reason that retrying cannot cure: every seat was cashed out, no round is dealt
    # any more (`Table.error` says why); an admin may close it.
    ERROR = "error", pgettext_lazy("table status", "error")


class SeatStatus(models.TextChoices):
    ACTIVE = "active", pgettext_lazy("seat status", "active")
    LEAVING = "leaving", pgettext_lazy("seat status", "leaving")
    ABSENT = "absent", pgettext_lazy("seat status", "absent")
    SITTING_OUT = "sitting_out", pgettext_lazy("seat status", "sitting out")
    LEFT = "left", pgettext_lazy("seat status", "left")


# A seat in any of these holds its chair; `left` is history.
SEATED_STATUSES = (SeatStatus.ACTIVE, SeatStatus.LEAVING, SeatStatus.ABSENT, SeatStatus.SITTING_OUT)


class GameStatus(models.TextChoices):
    WAITING = "waiting", pgettext_lazy("game status", "waiting for players")
    PLAYING = "playing", pgettext_lazy("game status", "round running")
    CLOSED = "closed", pgettext_lazy("game status", "closed")


class Table(models.Model):
    game = models.CharField(_("game"), max_length=32)
    options = models.JSONField(_("game options"), default=dict, blank=True)
    seats = models.PositiveSmallIntegerField(_("seats"))
    pcr = models.PositiveIntegerField(_("PCR (chips per point)"))
    min_buy_in = models.BigIntegerField(_("smallest buy-in"))
    max_buy_in = models.BigIntegerField(_("largest buy-in"))
    multiplier = models.PositiveIntegerField(_("multiplier"), default=1)
    private = models.BooleanField(_("private"), default=False)
    code = models.CharField(_("code"), max_length=16, null=True, blank=True, unique=True)
    status = models.CharField(
        _("status"), max_length=16, choices=TableStatus.choices, default=TableStatus.OPEN
    )
    # Why a round start failed (status `error`; kept if the table is closed afterwards).
    error = models.CharField(_("error"), max_length=500, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="created_tables",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # A tournament's table plays for its tournament (`live.tables.policy.policy_for`); null at a ring table.
    tournament = models.ForeignKey(
        "Tournament",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tables",
        verbose_name=_("tournament"),
    )
    # A multi-table tournament's table in round-for-round play: the synchronized round it last dealt
    # (it deals again once the tournament's `sync_round` is past it).
    played_sync_round = models.PositiveIntegerField(_("synchronized round dealt"), default=0)
    # A multi-table tournament's table whose last round is settled and whose tournament job has not run yet:
    # it deals nothing until then (a deal first would release the seats left without chips before the job
    # busts them, and the job would find its round stale).
    awaiting_job = models.BooleanField(_("awaiting the tournament job"), default=False, editable=False)
    # A practice table: one player against server bots, no chips, never listed (`tournaments.practice`).
    practice = models.BooleanField(_("practice table"), default=False, editable=False)

    class Meta:
        ordering = ["id"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
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
        return _("table %(id)s") % {"id": self.pk}


class Seat(models.Model):
    """One sitting of one player; a new row each time a player sits down after leaving."""

    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="seat_set", verbose_name=_("table")
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    number = models.PositiveSmallIntegerField(_("seat number"))
    # The ledger account (kind seat_stack, reference "table:<t>:seat:<seat id>") holding the chips at the table;
    # null for a seat that never stakes (a practice table's seats, the bots' and the player's: no account is
    # opened for chips that are never there, docs/tables.md "Practice tables").
    # Typed as always there (the plugin would make it optional everywhere): only practice seats lack one, and
    # what may meet a practice seat reads `chips` or `stack_account_id`, never the account.
    stack_account: models.OneToOneField[Account | None, Account] = models.OneToOneField(  # type: ignore[misc]
        "ledger.Account",
        on_delete=models.PROTECT,
        related_name="seat",
        null=True,
        blank=True,
        verbose_name=_("stack account"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=SeatStatus.choices, default=SeatStatus.SITTING_OUT
    )
    timeouts_in_row = models.PositiveIntegerField(_("timeouts in a row"), default=0)
    timeouts_in_round = models.PositiveIntegerField(_("timeouts this round"), default=0)
    sat_at = models.DateTimeField(_("sat down at"), auto_now_add=True)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)
    # The client's network address when the player sat down (security.addresses; "" when unknown): the
    # integrity job's "shared address" signal reads it (docs/integrity.md).
    address = models.CharField(_("network address"), max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["table_id", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
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
        return _("seat %(number)s of table %(table)s") % {"number": self.number, "table": self.table_id}

    @property
    def chips(self) -> int:
        """The chips in front of the player: the stack account's balance, 0 for a seat that has none."""
        return 0 if self.stack_account_id is None else self.stack_account.balance


class Game(models.Model):
    """The live play of a table: one per table, spanning its rounds."""

    table = models.OneToOneField(
        Table, on_delete=models.PROTECT, related_name="live_game", verbose_name=_("table")
    )
    # The engine state of the current (or last) round, as serialized by the engine.
    state = models.JSONField(_("engine state"), null=True, blank=True, editable=False)
    # Bumped by every change a client can observe (moves, round start and end); clocks carry it.
    version = models.PositiveIntegerField(_("version"), default=0)
    dealer_seat = models.PositiveSmallIntegerField(_("dealer's seat"), null=True, blank=True)
    # The running (or last) round, read along with the locked game row.
    current_round = models.ForeignKey(
        "Round",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        editable=False,
        verbose_name=_("current round"),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=GameStatus.choices, default=GameStatus.WAITING
    )
    turn_player = models.CharField(_("whose turn"), max_length=150, blank=True, default="")
    # The version at which the current turn's clock was armed: the turn clock carries it, so the moves
    # inside one turn (draw, melds, discard) need no new clock message.
    turn_version = models.PositiveIntegerField(_("turn version"), default=0)
    # When the last turn clock message sent will fire. A client's move that starts a turn whose deadline is
    # no earlier sends none: that message, finding another turn running, re-arms the clock for it.
    clock_due_at = models.DateTimeField(_("clock due at"), null=True, blank=True, editable=False)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    turn_deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    claims_deadline = models.DateTimeField(_("claims deadline"), null=True, blank=True)
    next_round_at = models.DateTimeField(_("next round at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["id"]
        verbose_name = pgettext_lazy("model", "game")
        verbose_name_plural = pgettext_lazy("model", "games")

    def __str__(self) -> str:
        return _("game %(id)s of table %(table)s") % {"id": self.pk, "table": self.table_id}


class Round(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="rounds", verbose_name=pgettext_lazy("model", "game")
    )
    number = models.PositiveIntegerField(_("number"))
    players = models.JSONField(_("players"), default=list)  # usernames, clockwise seat order
    seat_numbers = models.JSONField(_("seat numbers"), default=dict)  # username -> seat number
    dealer = models.PositiveSmallIntegerField(_("dealer"))  # index into players
    deal_commitment = models.CharField(_("deal commitment"), max_length=128)
    # The ruleset the round was dealt with (`Ruleset.to_dict`: {"preset", "options"}): an admin may change a
    # table's game and options between rounds, and a replay (`live.rounds.replays`) needs the round's own. Null for
    # rounds dealt before it was kept.
    rules = models.JSONField(_("rules"), null=True, blank=True, editable=False)
    # Secret until the round is over: never serialized or shown while `ended_at` is null.
    deck = models.JSONField(_("deck"), null=True, blank=True, editable=False)
    salt = models.CharField(_("salt"), max_length=128, blank=True, default="", editable=False)
    stacks = models.JSONField(
        _("stacks at the start"), default=dict
    )  # username -> chips when the round began
    time_bank = models.JSONField(_("time bank"), default=dict)  # username -> seconds of time bank left
    result = models.JSONField(_("result"), null=True, blank=True)
    scores = models.JSONField(_("scores"), null=True, blank=True)
    transfers = models.JSONField(_("payments"), default=list, blank=True)  # [{from, to, amount, kind}]
    settled = models.BooleanField(_("settled"), default=False)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    class Meta:
        ordering = ["game_id", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_number_unique_in_game"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(settled=False) | Q(ended_at__isnull=False), name="round_settled_only_when_over"
            ),
        ]

    def __str__(self) -> str:
        return _("round %(number)s of game %(game)s") % {"number": self.number, "game": self.game_id}

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
        verbose_name = _("player of a round")
        verbose_name_plural = _("players of rounds")
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
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
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
        verbose_name = _("move")
        verbose_name_plural = _("moves")
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
        verbose_name = _("idempotent request")
        verbose_name_plural = _("idempotent requests")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "method", "path", "key"], name="idempotent_request_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} by user {self.user_id} (key {self.key[:16]})"

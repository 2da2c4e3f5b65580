"""Chat (docs/rules.md "Chat"): rooms, their messages (append-only), each player's mutes and blocks, reports,
staff time-outs and staff's changes of a room's modes (append-only: the audit trail of the moderation)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MAX_TEXT = 280


class RoomKind(models.TextChoices):
    TABLE = "table", pgettext_lazy("chat room", "table")
    TOURNAMENT = "tournament", pgettext_lazy("chat room", "tournament")
    LOBBY = "lobby", pgettext_lazy("chat room", "lobby")


class Room(models.Model):
    """A chat room, made the first time it is used: one per table, per tournament, and the lobby."""

    kind = models.CharField(_("kind"), max_length=16, choices=RoomKind.choices)
    table = models.OneToOneField(
        "tournaments.Table",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("tournament"),
    )
    # Staff's modes (each change recorded in RoomModeChange) and an admin's switch.
    slow_mode = models.BooleanField(_("slow mode"), default=False)
    members_only = models.BooleanField(_("members-only mode"), default=False)
    enabled = models.BooleanField(_("chat on"), default=True)

    class Meta:
        verbose_name = _("chat room")
        verbose_name_plural = _("chat rooms")
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="table", table__isnull=False, tournament__isnull=True))
                | Q(kind="tournament", tournament__isnull=False, table__isnull=True)
                | Q(kind="lobby", table__isnull=True, tournament__isnull=True),
                name="chat_room_kind_matches",
            ),
            models.UniqueConstraint(fields=["kind"], condition=Q(kind="lobby"), name="chat_one_lobby"),
        ]

    def __str__(self) -> str:
        return self.key

    @property
    def key(self) -> str:
        """The room's name in the API: `table:<id>`, `tournament:<id>` or `lobby`."""
        if self.kind == RoomKind.TABLE:
            return f"table:{self.table_id}"
        if self.kind == RoomKind.TOURNAMENT:
            return f"tournament:{self.tournament_id}"
        return "lobby"


class AppendOnly(models.Model):
    """A row written once: saving it again or deleting it is refused (the record of what was said and done)."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValueError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(f"{type(self).__name__} rows are append-only")


class Message(AppendOnly):
    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="+", verbose_name=_("room"))
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("author")
    )
    # The text as written (a quick phrase: its English words; `phrase` names it and each reader sees it in
    # their own language).
    text = models.CharField(_("text"), max_length=MAX_TEXT)
    phrase = models.CharField(_("quick phrase"), max_length=32, blank=True, default="")
    at = models.DateTimeField(_("at"), db_index=True)
    # The pattern check's verdict at writing (chat/transfer_talk.py): the text seems to arrange a chip transfer.
    transfer_talk = models.BooleanField(_("arranges chips"), default=False)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["id"]
        indexes = [
            models.Index(fields=["room", "id"], name="chat_message_room_id"),
            models.Index(fields=["author", "room", "at"], name="chat_message_author_room_at"),
            models.Index(fields=["author", "id"], name="chat_message_author_id"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.author_id}: {self.text[:40]}"


class Mute(models.Model):
    """`owner` no longer sees `target`'s messages, in any room. A block is a mute that also keeps `target` out
    of the private tables `owner` creates."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    block = models.BooleanField(_("block"), default=False)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        constraints = [
            models.UniqueConstraint(fields=["owner", "target"], name="chat_mute_once"),
            models.CheckConstraint(condition=~Q(owner=models.F("target")), name="chat_mute_not_self"),
        ]
        indexes = [models.Index(fields=["target", "block"], name="chat_mute_target_block")]

    def __str__(self) -> str:
        return f"{self.owner_id} {'blocks' if self.block else 'mutes'} {self.target_id}"


class ReportReason(models.TextChoices):
    SPAM = "spam", pgettext_lazy("chat reason", "spam")
    INSULT = "insult", pgettext_lazy("chat reason", "insult")
    CHIP_TRADING = "chip_trading", pgettext_lazy("chat reason", "chip trading")
    OTHER = "other", pgettext_lazy("chat reason", "other")


class Report(AppendOnly):
    message = models.ForeignKey(
        Message, on_delete=models.PROTECT, related_name="+", verbose_name=_("message")
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("reported by")
    )
    reason = models.CharField(_("reason"), max_length=16, choices=ReportReason.choices)
    note = models.CharField(_("note"), max_length=MAX_TEXT, blank=True, default="")
    at = models.DateTimeField(_("at"), db_index=True)

    class Meta:
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")
        ordering = ["-at", "-id"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]

    def __str__(self) -> str:
        return f"report of #{self.message_id} ({self.reason})"


class TimeOutScope(models.TextChoices):
    ROOM = "room", pgettext_lazy("chat scope", "this room")
    SITE = "site", pgettext_lazy("chat scope", "the whole site")


# The time-outs staff give, in seconds (docs/rules.md "Chat": 10 min, 1 h, 24 h).
TIME_OUT_SECONDS = (600, 3600, 86400)


class TimeOut(AppendOnly):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    reason = models.CharField(_("reason"), max_length=16, choices=ReportReason.choices)
    scope = models.CharField(_("scope"), max_length=8, choices=TimeOutScope.choices)
    room = models.ForeignKey(
        Room, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("room")
    )
    seconds = models.PositiveIntegerField(_("length (seconds)"))
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"), db_index=True)
    note = models.CharField(_("note"), max_length=MAX_TEXT, blank=True, default="")
    message = models.ForeignKey(
        Message, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("message")
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("given by")
    )

    class Meta:
        verbose_name = _("chat time-out")
        verbose_name_plural = _("chat time-outs")
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["player", "ends_at"], name="chat_timeout_player_ends")]
        constraints = [
            models.CheckConstraint(
                condition=Q(scope="site", room__isnull=True) | Q(scope="room", room__isnull=False),
                name="chat_timeout_scope_room",
            ),
            models.CheckConstraint(condition=Q(seconds__in=TIME_OUT_SECONDS), name="chat_timeout_length"),
        ]

    def __str__(self) -> str:
        return (
            f"time-out of {self.player_id} until {self.ends_at:%Y-%m-%d %H:%M}"
            if self.ends_at
            else "time-out"
        )


class RoomModeChange(AppendOnly):
    """Staff (or an admin) set a room's modes: the record of who changed what, when."""

    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="+", verbose_name=_("room"))
    slow_mode = models.BooleanField(_("slow mode"))
    members_only = models.BooleanField(_("members-only mode"))
    enabled = models.BooleanField(_("chat on"))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("changed by")
    )
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("chat room change")
        verbose_name_plural = _("chat room changes")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.room_id} changed at {self.at:%Y-%m-%d %H:%M}"

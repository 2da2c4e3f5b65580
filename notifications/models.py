"""Notifications (docs/api.md "Notifications"): what a player was told, their switches and language, their Web
Push subscriptions. Whether a player is looking at a table ("your turn") is presence's (tournaments/presence/)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class NotificationKind(models.TextChoices):
    YOUR_TURN = "your_turn", _("Your turn")
    TOURNAMENT_SOON = "tournament_soon", _("Your tournament starts in 5 minutes")
    TOURNAMENT_STARTED = "tournament_started", _("Your tournament has started")
    TABLE_MOVED = "table_moved", _("Your table moved")
    PRIZE_WON = "prize_won", _("You won a prize")
    DEAL_PROPOSED = "deal_proposed", _("A deal is proposed at your table")


class Channel(models.TextChoices):
    CLIENT = "client", _("In the client")
    EMAIL = "email", _("E-mail")
    PUSH = "push", _("Web Push")


class Notification(models.Model):
    """One thing told to one player. `key` names its cause (e.g. `tournament:44:soon`): the same cause twice
    makes one notification (a task run twice, a beat run twice)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=24, choices=NotificationKind.choices)
    key = models.CharField(_("cause"), max_length=120)
    # What the texts and the client's link are made of: ids and names (tournament, table, game, amount).
    data = models.JSONField(_("data"), default=dict)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)
    # Kept in the client's notification centre (the player's switch for this kind's channel `client`).
    in_client = models.BooleanField(_("in the client"), default=True)
    # When each outside channel delivered it (null: not sent, switched off, or still being tried).
    email_sent_at = models.DateTimeField(_("e-mail sent at"), null=True, blank=True)
    push_sent_at = models.DateTimeField(_("push sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="notification_user_key")]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_user_created"),
            models.Index(
                fields=["user"],
                condition=models.Q(read_at__isnull=True, in_client=True),
                name="notification_user_unread",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.key}"


class NotificationSettings(models.Model):
    """A player's language for what is sent to them and their switches: {kind: {channel: bool}}, only the
    choices that differ from the defaults (notifications/kinds.py DEFAULTS) need be stored."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    switches = models.JSONField(_("switches"), default=dict, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return f"{self.user_id} {self.language}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (the PushSubscription's JSON: endpoint and keys). Deleted when the
    player unsubscribes or the push service answers that it is gone (404, 410)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key (p256dh)"), max_length=200)
    auth = models.CharField(_("authentication secret"), max_length=100)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("Web Push subscription")
        verbose_name_plural = _("Web Push subscriptions")

    def __str__(self) -> str:
        return f"{self.user_id} {self.endpoint[:60]}"

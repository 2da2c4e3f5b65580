"""Play sessions and reality checks (docs/rules.md "Responsible play"). A session is a stretch of seated time at
ring and tournament tables with no gap over 15 minutes; it is read from the seats and recorded here (first seat,
last seat) when the player's client or the sweep sees it; each reality check's answer is kept."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

REALITY_CHECK_CHOICES = (15, 30, 60)
DEFAULT_REALITY_CHECK_MINUTES = 60


class RealityCheckSetting(models.Model):
    """How often the player's reality check comes (15, 30 or 60 minutes; 60 when there is no row)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        primary_key=True,
        related_name="+",
        verbose_name=_("player"),
    )
    minutes = models.PositiveSmallIntegerField(
        _("minutes between reality checks"), default=DEFAULT_REALITY_CHECK_MINUTES
    )
    updated_at = models.DateTimeField(_("updated at"))

    class Meta:
        verbose_name = _("reality check setting")
        verbose_name_plural = _("reality check settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(minutes__in=REALITY_CHECK_CHOICES), name="reality_check_minutes"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.minutes} min"


class PlaySession(models.Model):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    started_at = models.DateTimeField(_("started at"))
    # The last seat's end, or empty while a seat is still held (or the 15 minutes' grace has not passed).
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    class Meta:
        verbose_name = _("play session")
        verbose_name_plural = _("play sessions")
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["player", "started_at"], name="play_session_player_start"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.started_at:%Y-%m-%d %H:%M}"


class RealityCheckAnswer(models.TextChoices):
    CONTINUE = "continue", pgettext_lazy("reality check", "continued")
    LEAVE = "leave", pgettext_lazy("reality check", "left the tables")


class RealityCheck(models.Model):
    """One reality check the player answered: the `number`-th of the session, what it showed and the answer."""

    session = models.ForeignKey(
        PlaySession, on_delete=models.PROTECT, related_name="checks", verbose_name=_("session")
    )
    number = models.PositiveIntegerField(_("number"))
    answered_at = models.DateTimeField(_("answered at"))
    answer = models.CharField(_("answer"), max_length=16, choices=RealityCheckAnswer.choices)
    played_seconds = models.PositiveIntegerField(_("seconds played"))
    net_result = models.BigIntegerField(_("net result"))

    class Meta:
        verbose_name = _("reality check")
        verbose_name_plural = _("reality checks")
        ordering = ["session_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="reality_check_once_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.session_id} #{self.number} {self.answer}"

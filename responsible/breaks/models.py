"""Breaks: cool-off and self-exclusion (docs/rules.md "Responsible play"). One row per break taken, kept for good:
a break is never shortened, so a row is never changed but to record an indefinite exclusion's revocation (which
sets its end 7 days after it was asked for) and when its seats and registrations were dealt with."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class BreakKind(models.TextChoices):
    COOL_OFF = "cool_off", pgettext_lazy("break kind", "cool-off")
    SELF_EXCLUSION = "self_exclusion", pgettext_lazy("break kind", "self-exclusion")


# The lengths a player may choose, in days (docs/rules.md "Responsible play"): a cool-off of 24 h, 48 h, 7 days, 30 days or 6 weeks; a
# self-exclusion of 30, 60 or 90 days, or indefinite.
COOL_OFF_DAYS = (1, 2, 7, 30, 42)
SELF_EXCLUSION_DAYS = (30, 60, 90)
DAYS = {BreakKind.COOL_OFF: COOL_OFF_DAYS, BreakKind.SELF_EXCLUSION: SELF_EXCLUSION_DAYS}
# An indefinite exclusion may be revoked once this many months have passed; the revocation applies this many
# days after it is asked for.
REVOCABLE_AFTER_MONTHS = 6
REVOCATION_DAYS = 7


class Break(models.Model):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=16, choices=BreakKind.choices)
    # The length chosen (null for an indefinite exclusion).
    days = models.PositiveSmallIntegerField(_("days"), null=True, blank=True)
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    # Null while an indefinite exclusion stands; set when its revocation is asked for.
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True, db_index=True)
    indefinite = models.BooleanField(_("indefinite"), default=False)
    # Staff who applied it (null: the player took it).
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("applied by"),
    )
    reason = models.TextField(_("reason"), blank=True, max_length=500)
    revocation_asked_at = models.DateTimeField(_("revocation asked at"), null=True, blank=True)
    # When its seats were left and its registrations refunded (the sweep finishes what a crash left).
    enforced_at = models.DateTimeField(_("enforced at"), null=True, blank=True)

    class Meta:
        verbose_name = _("break")
        verbose_name_plural = _("breaks")
        ordering = ["-starts_at", "-pk"]
        indexes = [models.Index(fields=["player", "starts_at"], name="break_player_starts")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.starts_at:%Y-%m-%d %H:%M}"

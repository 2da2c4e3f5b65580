"""A player's limits as the record of every change (docs/rules.md "Responsible play"): rows are added, never
deleted; a change not yet applied can be withdrawn (or is superseded by a newer one), which stamps
`withdrawn_at` once. What is in force at an instant is the last change applied by then and not withdrawn."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from responsible.limits.periods import Period


class LimitName(models.TextChoices):
    STAKES_DAY = "stakes_day", pgettext_lazy("limit", "stakes per day")
    STAKES_WEEK = "stakes_week", pgettext_lazy("limit", "stakes per week")
    STAKES_MONTH = "stakes_month", pgettext_lazy("limit", "stakes per month")
    LOSS_DAY = "loss_day", pgettext_lazy("limit", "net loss per day")
    LOSS_WEEK = "loss_week", pgettext_lazy("limit", "net loss per week")
    LOSS_MONTH = "loss_month", pgettext_lazy("limit", "net loss per month")
    MINUTES_DAY = "minutes_day", pgettext_lazy("limit", "minutes seated per day")


# What each limit measures and over which calendar period.
CHIP_LIMITS: dict[str, tuple[str, Period]] = {
    LimitName.STAKES_DAY: ("stakes", Period.DAY),
    LimitName.STAKES_WEEK: ("stakes", Period.WEEK),
    LimitName.STAKES_MONTH: ("stakes", Period.MONTH),
    LimitName.LOSS_DAY: ("loss", Period.DAY),
    LimitName.LOSS_WEEK: ("loss", Period.WEEK),
    LimitName.LOSS_MONTH: ("loss", Period.MONTH),
}
# Chips: at most a thousand billion; minutes: at most a day.
MAX_CHIPS = 10**12
MAX_MINUTES = 24 * 60


class LimitChange(models.Model):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    limit = models.CharField(_("limit"), max_length=16, choices=LimitName.choices)
    # The new value (chips, or minutes for `minutes_day`); empty: no limit (a removal).
    value = models.BigIntegerField(_("value"), null=True, blank=True)
    # The value in force when the change was asked for (empty: none), to tell a cut from a raise in the history.
    previous = models.BigIntegerField(_("previous value"), null=True, blank=True)
    requested_at = models.DateTimeField(_("asked for at"))
    # At once for a new limit or a cut; `RAMINO_LIMIT_RAISE_DAYS` later for a raise or a removal.
    applies_at = models.DateTimeField(_("applies at"), db_index=True)
    # A change not yet applied, withdrawn by the player or replaced by a newer change of the same limit.
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("asked for by"),
    )

    class Meta:
        verbose_name = _("limit change")
        verbose_name_plural = _("limit changes")
        ordering = ["applies_at", "pk"]
        indexes = [models.Index(fields=["player", "limit", "applies_at"], name="limit_change_player_limit")]
        constraints = [
            models.CheckConstraint(
                condition=Q(value__isnull=True) | Q(value__gt=0), name="limit_value_positive"
            ),
            models.CheckConstraint(
                condition=Q(applies_at__gte=models.F("requested_at")), name="limit_applies_after"
            ),
            models.CheckConstraint(condition=Q(limit__in=LimitName.values), name="limit_name_known"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.limit}={self.value} @ {self.applies_at:%Y-%m-%d %H:%M}"

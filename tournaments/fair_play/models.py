"""The fair-play record (docs/rules.md "Fair play"): append-only rows, never changed or deleted."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class AbandonmentKind(models.TextChoices):
    # Marked absent (too many timeouts: docs/rules.md, "Ring tables, clocks and timeouts") at a ring table.
    RING_ABSENT = "ring_absent", pgettext_lazy("abandonment", "absent at a ring table")
    # Marked absent at a tournament's table.
    TOURNAMENT_ABSENT = "tournament_absent", pgettext_lazy("abandonment", "absent in a tournament")


class Abandonment(models.Model):
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    at = models.DateTimeField(_("at"), db_index=True)
    kind = models.CharField(_("kind"), max_length=24, choices=AbandonmentKind.choices)
    table = models.ForeignKey(
        "tournaments.Table",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("tournament"),
    )

    class Meta:
        verbose_name = _("abandonment")
        verbose_name_plural = _("abandonments")
        indexes = [models.Index(fields=["player", "at"], name="abandonment_player_at")]
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.player_id} {self.kind} {self.at:%Y-%m-%d %H:%M}"


class BarLift(models.Model):
    """Staff lifted a player's bar: the abandonments before it no longer count."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    lifted_at = models.DateTimeField(_("lifted at"), db_index=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("lifted by")
    )

    class Meta:
        verbose_name = _("lifted bar")
        verbose_name_plural = _("lifted bars")
        ordering = ["-lifted_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.player_id} lifted {self.lifted_at:%Y-%m-%d %H:%M}"

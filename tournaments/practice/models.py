"""A practice table's own facts beside its `Table` row (`Table.practice` marks the table's kind)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class BotLevel(models.TextChoices):
    EASY = "easy", pgettext_lazy("bot level", "easy")  # the engine's RandomBot
    MEDIUM = "medium", pgettext_lazy("bot level", "medium")  # its GreedyBot
    HARD = "hard", pgettext_lazy("bot level", "hard")  # its stronger bot


class PracticeTable(models.Model):
    table = models.OneToOneField(
        "tournaments.Table", on_delete=models.PROTECT, primary_key=True, related_name="practice_table"
    )
    # The one person at the table (the bots are the other seats).
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    level = models.CharField(max_length=8, choices=BotLevel.choices)
    # The first round's deck (top first) and dealer, for a guided round (the demo); null: shuffled as usual.
    first_deal = models.JSONField(null=True, blank=True, editable=False)
    # A guided first round (the landing page's demo).
    demo = models.BooleanField(default=False)
    # The player's current practice table: true from its start until it is ended (`services.end_practice`,
    # also run on a table closed otherwise, by an admin or a failed deal, at the player's next start). The
    # database keeps one per player (`practice_one_open_table_per_player`): concurrent starts cannot both win.
    current = models.BooleanField(default=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("practice table")
        verbose_name_plural = _("practice tables")
        constraints = [
            models.UniqueConstraint(
                fields=["player"], condition=Q(current=True), name="practice_one_open_table_per_player"
            ),
            models.CheckConstraint(
                condition=Q(level__in=["easy", "medium", "hard"]), name="practice_level_known"
            ),
        ]

    def __str__(self) -> str:
        return f"practice table {self.table_id} of {self.player_id}"

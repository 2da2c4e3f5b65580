"""Integrity flags, the per-pair counters the daily job keeps, and the job's checkpoint (docs/integrity.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from integrity import signals


class FlagKind(models.TextChoices):
    CHIP_DUMPING = signals.CHIP_DUMPING, _("Chip dumping")
    SOFT_PLAY = signals.SOFT_PLAY, _("Soft play")
    FREQUENT_PAIR = signals.FREQUENT_PAIR, _("Frequent pair")
    SHARED_ADDRESS = signals.SHARED_ADDRESS, _("Shared address")
    GRANT_FARMING = signals.GRANT_FARMING, _("Grant farming")


class FlagStatus(models.TextChoices):
    OPEN = "open", _("Open")
    DISMISSED = "dismissed", _("Dismissed")
    CONFIRMED = "confirmed", _("Confirmed")


class Flag(models.Model):
    """A signal that fired for some players, with its evidence (the chips moved among them included:
    `evidence.chips_moved`, `evidence.chips`); staff set its status and note.

    One flag per (kind, subject, since): `subject` names the players (or the table and address), `since` the
    point its evidence starts after (the round id of the last decision on the pair, or the table's id), so the
    job updates an open flag in place and re-running it never adds a second one."""

    kind = models.CharField(max_length=32, choices=FlagKind.choices)
    subject = models.CharField(max_length=400)
    since = models.BigIntegerField(default=0)
    players = models.JSONField(default=list)  # usernames
    score = models.FloatField(default=0.0)
    # {"rounds": [ids], "transfers": [ids], "tables": [ids], "chips_moved": [{from, to, chips}], "chips",
    #  ...the signal's numbers}
    evidence = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=FlagStatus.choices, default=FlagStatus.OPEN)
    note = models.TextField(blank=True, default="")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("integrity flag")
        verbose_name_plural = _("integrity flags")
        constraints = [
            models.UniqueConstraint(fields=["kind", "subject", "since"], name="integrity_flag_unique_window"),
            models.CheckConstraint(
                condition=Q(status__in=FlagStatus.values), name="integrity_flag_status_known"
            ),
            models.CheckConstraint(condition=Q(kind__in=FlagKind.values), name="integrity_flag_kind_known"),
            models.CheckConstraint(
                condition=Q(status=FlagStatus.OPEN) | Q(decided_at__isnull=False),
                name="integrity_flag_decided_has_time",
            ),
        ]
        indexes = [models.Index(fields=["status", "kind"], name="integrity_flag_status_kind")]

    def __str__(self) -> str:
        return f"{self.kind} flag #{self.pk}: {', '.join(self.players)} ({self.status})"


class PairStat(models.Model):
    """Two players' counters (a < b by username) since staff last decided each signal about them."""

    a = models.CharField(max_length=150)
    b = models.CharField(max_length=150)
    rounds = models.PositiveIntegerField(default=0)
    paid_ab = models.BigIntegerField(default=0)
    paid_ba = models.BigIntegerField(default=0)
    pay_rounds_ab = models.PositiveIntegerField(default=0)
    pay_rounds_ba = models.PositiveIntegerField(default=0)
    timeout_paid_ab = models.PositiveIntegerField(default=0)
    timeout_paid_ba = models.PositiveIntegerField(default=0)
    feeds_offered = models.PositiveIntegerField(default=0)
    feeds_taken = models.PositiveIntegerField(default=0)
    feeds_expected = models.FloatField(default=0.0)
    # Chips a paid b while a's account was new, and b paid a while b's was (grant farming).
    new_paid_ab = models.BigIntegerField(default=0)
    new_paid_ba = models.BigIntegerField(default=0)
    private_table_ids = models.JSONField(default=list)
    # The newest ids behind the counters (signals.EVIDENCE_IDS of each).
    round_ids = models.JSONField(default=list)
    transfer_ids = models.JSONField(default=list)
    table_ids = models.JSONField(default=list)
    # The round id after which each signal's counters start (0, or where staff last decided a flag).
    dumping_since = models.BigIntegerField(default=0)
    soft_since = models.BigIntegerField(default=0)
    pair_since = models.BigIntegerField(default=0)
    # Where staff last decided a grant-farming flag of either player as the payee.
    farm_since = models.BigIntegerField(default=0)
    last_round_id = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("pair of players")
        verbose_name_plural = _("pairs of players")
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="integrity_pair_unique"),
            models.CheckConstraint(condition=Q(a__lt=models.F("b")), name="integrity_pair_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.a} & {self.b}"


class GameBaseline(models.Model):
    """Per game: discards offered to the next player and taken by them, over every round the job read."""

    game = models.CharField(max_length=32, unique=True)
    offered = models.BigIntegerField(default=0)
    taken = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("game baseline")
        verbose_name_plural = _("game baselines")

    def __str__(self) -> str:
        return f"{self.game}: {self.taken}/{self.offered}"


class Checkpoint(models.Model):
    """The daily job's watermark: the last settlement transfer and seat it read (one row, id 1)."""

    last_transfer_id = models.BigIntegerField(default=0)
    last_seat_id = models.BigIntegerField(default=0)
    last_run_at = models.DateTimeField(null=True, blank=True)
    last_run_seconds = models.FloatField(null=True, blank=True)
    last_run_rounds = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = pgettext_lazy("integrity", "checkpoint")
        verbose_name_plural = pgettext_lazy("integrity", "checkpoints")

    def __str__(self) -> str:
        return f"integrity checkpoint: transfer {self.last_transfer_id}, seat {self.last_seat_id}"

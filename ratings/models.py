"""Ratings kept per player and game family, every change kept, and the final results they were computed from.

A `RatedResult` is a final ranking (a ring table's round, a finished tournament) recorded once; results are
applied in `sequence` order, the order the rating history follows and a rebuild replays (docs/ratings.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ratings.maths import DEFAULT_MU, DEFAULT_SIGMA, display_rating
from tournaments.games import family_names

# What a rating is kept for: the engine's families, each by the name it declares (tournaments.games). Presets of
# one family share its rating.
Family = models.TextChoices(  # type: ignore[call-overload]  # the functional API (django-stubs types the class one)
    "Family", [(name.upper(), (name, label)) for name, label in family_names().items()]
)


class ResultSource(models.TextChoices):
    ROUND = "round", _("ring table round")
    TOURNAMENT = "tournament", _("tournament")


class RatedResult(models.Model):
    """A final result: who finished where (places start at 1; ties share a place)."""

    source = models.CharField(max_length=16, choices=ResultSource.choices)
    family = models.CharField(max_length=16, choices=Family.choices)
    game = models.CharField(max_length=32)  # the preset played
    round = models.OneToOneField(
        "tournaments.Round", on_delete=models.PROTECT, null=True, blank=True, related_name="rated_result"
    )
    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.PROTECT, null=True, blank=True, related_name="rated_result"
    )
    places = models.JSONField()  # {user id (as text): place}
    finished_at = models.DateTimeField()
    recorded_at = models.DateTimeField(auto_now_add=True)
    # Assigned when applied, in the order results are applied; a rebuild replays this order.
    sequence = models.PositiveBigIntegerField(null=True, blank=True, unique=True)

    class Meta:
        verbose_name = _("rated result")
        verbose_name_plural = _("rated results")
        constraints = [
            models.CheckConstraint(
                name="rated_result_names_its_source",
                condition=(Q(source="round", round__isnull=False, tournament__isnull=True))
                | (Q(source="tournament", tournament__isnull=False, round__isnull=True)),
            ),
        ]
        indexes = [models.Index(fields=["sequence"], name="rated_result_pending", condition=Q(sequence=None))]

    def __str__(self) -> str:
        return f"{self.source} {self.round_id or self.tournament_id} ({self.family})"


class Rating(models.Model):
    """A player's current skill in one family: mu and sigma (Weng-Lin), and the rating shown."""

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="ratings")
    family = models.CharField(max_length=16, choices=Family.choices)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    rating = models.IntegerField(default=display_rating(DEFAULT_MU, DEFAULT_SIGMA))
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["player", "family"], name="rating_one_per_player_and_family"),
            models.CheckConstraint(name="rating_sigma_positive", condition=Q(sigma__gt=0)),
        ]
        # The leaderboard: a family's ratings, best first.
        indexes = [models.Index(fields=["family", "-rating", "player"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.family} {self.rating}"


class RatingChange(models.Model):
    """One player's rating before and after one result: the history and the profile's recent games."""

    result = models.ForeignKey(RatedResult, on_delete=models.PROTECT, related_name="changes")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rating_changes"
    )
    family = models.CharField(max_length=16, choices=Family.choices)
    place = models.PositiveIntegerField()
    sequence = models.PositiveBigIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_after = models.IntegerField()
    games_after = models.PositiveIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["result", "player"], name="rating_change_once_per_result"),
        ]
        indexes = [models.Index(fields=["player", "family", "-sequence"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.family} #{self.sequence}: {self.rating_after}"


class RatingsCursor(models.Model):
    """One row: the lock every application of results takes (one writer at a time, so `sequence` is the
    order of application), the last sequence number given, and how far the game events were scanned."""

    last_sequence = models.PositiveBigIntegerField(default=0)
    last_event_id = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = _("ratings cursor")
        verbose_name_plural = _("ratings cursors")

    def __str__(self) -> str:
        return f"ratings cursor at #{self.last_sequence}"

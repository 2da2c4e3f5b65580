"""Reads for profiles, rating histories and leaderboards, as records the serializers render."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.db.models import QuerySet

from ratings.errors import PlayerNotFound
from ratings.maths import DEFAULT_MU, DEFAULT_SIGMA, display_rating
from ratings.models import Family, Rating, RatingChange
from ratings.results import family_of
from tournaments.tournament.models import TournamentEntry, TournamentStatus

RECENT = 10
TOURNAMENTS = 20


def provisional_games() -> int:
    return int(settings.RAMINO_RATINGS_PROVISIONAL_GAMES)


@dataclass(frozen=True)
class RatingRecord:
    game: str
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool


@dataclass(frozen=True)
class RecentRecord:
    game: str
    table: int | None
    tournament: int | None
    place: int
    at: datetime


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    name: str
    place: int
    prize: int | None


@dataclass(frozen=True)
class Profile:
    username: str
    joined: datetime
    ratings: list[RatingRecord]
    recent: list[RecentRecord]
    tournaments: list[TournamentRecord]


def is_staff_or_admin(user: AbstractBaseUser) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def player(*, username: str) -> User:
    """A player with a public profile: an active account that is neither staff nor an admin (their names,
    which say who holds privileges, answer 404 like an unknown player's)."""
    found = (
        get_user_model()
        .objects.filter(username=username, is_active=True, is_staff=False, is_superuser=False)
        .first()
    )
    if found is None:
        raise PlayerNotFound(details={"username": username})
    return found


def profile(*, username: str, viewer: AbstractBaseUser | None) -> Profile:
    """A player's public profile; tournament prizes only for the player themself and staff."""
    user = player(username=username)
    sees_prizes = viewer is not None and (viewer.pk == user.pk or is_staff_or_admin(viewer))
    enough = provisional_games()
    ratings = [
        RatingRecord(
            game=r.family,
            rating=r.rating,
            mu=r.mu,
            sigma=r.sigma,
            games=r.games,
            provisional=r.games < enough,
        )
        for r in Rating.objects.filter(player=user).order_by("family")
    ]
    changes = RatingChange.objects.filter(player=user).select_related("result").order_by("-sequence")[:RECENT]
    recent = [
        RecentRecord(
            game=c.result.game,
            table=c.result.table_id,
            tournament=c.result.tournament_id,
            place=c.place,
            at=c.finished_at,
        )
        for c in changes
    ]
    entries = (
        TournamentEntry.objects.filter(
            player=user, place__isnull=False, tournament__status=TournamentStatus.FINISHED
        )
        .select_related("tournament")
        .order_by("-tournament__finished_at", "-tournament_id")[:TOURNAMENTS]
    )
    tournaments = [
        TournamentRecord(
            id=e.tournament_id,
            name=e.tournament.name,
            place=int(e.place or 0),
            prize=int(e.prize) if sees_prizes else None,
        )
        for e in entries
    ]
    return Profile(
        username=user.get_username(),
        joined=user.date_joined,
        ratings=ratings,
        recent=recent,
        tournaments=tournaments,
    )


def resolve_family(game: str) -> str | None:
    """A family name, or a preset resolved to its family; None for anything else."""
    if game in Family.values:
        return game
    return family_of(game)


def history(*, username: str, family: str) -> QuerySet[RatingChange]:
    """A player's rating after each rated result of the family, oldest first."""
    user = player(username=username)
    return RatingChange.objects.filter(player=user, family=family).order_by("sequence")


def leaderboard(*, family: str) -> QuerySet[Rating, tuple[str, int, int]]:
    """The family's established players (provisional ones left out, and staff and admins, who have no public
    profile), best first; ties by who was rated first: (username, rating, games) rows, read straight off the
    leaderboard index (docs/performance.md, "Leaderboard")."""
    return (
        Rating.objects.filter(
            family=family,
            games__gte=provisional_games(),
            player__is_staff=False,
            player__is_superuser=False,
        )
        .order_by("-rating", "player_id")
        .values_list("player__username", "rating", "games")
    )


def rating_and_results(user_id: int, family: str) -> tuple[int, int]:
    """A player's shown rating and number of rated results in `family` (the starting rating and 0 for a player
    with none): what a tournament's entry rules ask (docs/rules.md "Entry rules")."""
    found = Rating.objects.filter(player_id=user_id, family=family).values_list("rating", "games").first()
    if found is None:
        return display_rating(DEFAULT_MU, DEFAULT_SIGMA), 0
    return int(found[0]), int(found[1])

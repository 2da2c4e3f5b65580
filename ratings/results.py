"""Final results recorded for rating, once each: a ring table's settled round (places by its settlement scores)
and a finished tournament (places as the tournament gave them). Private tables are left out unless
RAMINO_RATINGS_PRIVATE_TABLES is on; tournament tables' rounds are left out (the tournament is the result), and so
are practice tables' (bots, nothing at stake)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from ratings.maths import places_from_scores
from ratings.models import RatedResult, RatingsCursor, ResultSource
from tournaments.engine import Ruleset, RulesetError
from tournaments.live.models import GameEvent, Round
from tournaments.tournament.models import Tournament, TournamentEntry, TournamentStatus

ROUND_OVER = "round_over"


def family_of(game: str) -> str | None:
    """The rating family of a preset (`rummy500_household` -> `rummy500`), None for a name no family plays."""
    try:
        return Ruleset.preset(game).family
    except (RulesetError, ValueError, KeyError):
        return None


def round_places(round_: Round) -> dict[str, int] | None:
    """{user id: place} of a settled ring-table round worth rating, else None."""
    table = round_.game.table
    result = round_.result or {}
    if table.tournament_id is not None or table.practice:
        return None  # a tournament rates its places; practice against bots is never rated
    if table.private and not settings.RAMINO_RATINGS_PRIVATE_TABLES:
        return None
    if result.get("redeal") or not round_.scores or len(round_.scores) < 2:
        return None
    ids = dict(
        get_user_model().objects.filter(username__in=list(round_.scores)).values_list("username", "pk")
    )
    if len(ids) != len(round_.scores):
        return None
    places = places_from_scores({name: int(score) for name, score in round_.scores.items()})
    return {str(ids[name]): place for name, place in places.items()}


def tournament_places(tournament: Tournament) -> dict[str, int]:
    """{user id: place}: each player's best place (a re-entered player has several entries)."""
    places: dict[str, int] = {}
    entries = TournamentEntry.objects.filter(tournament=tournament, place__isnull=False)
    for player_id, place in entries.values_list("player_id", "place"):
        if place is None:
            continue
        key = str(player_id)
        places[key] = min(place, places.get(key, place))
    return places


def _record(**fields: object) -> bool:
    """Insert one result; False when it was recorded already (a concurrent run got there first)."""
    try:
        with transaction.atomic():
            RatedResult.objects.create(**fields)
    except IntegrityError:
        return False
    return True


def record_round(round_: Round) -> bool:
    if RatedResult.objects.filter(round=round_).exists():
        return False
    places = round_places(round_)
    family = family_of(round_.game.table.game)
    if places is None or family is None or round_.ended_at is None:
        return False
    return _record(
        source=ResultSource.ROUND,
        family=family,
        game=round_.game.table.game,
        round=round_,
        table=round_.game.table,
        places=places,
        finished_at=round_.ended_at,
    )


def record_tournament(tournament: Tournament) -> bool:
    if RatedResult.objects.filter(tournament=tournament).exists():
        return False
    places = tournament_places(tournament)
    family = family_of(tournament.game)
    if len(places) < 2 or family is None or tournament.status != TournamentStatus.FINISHED:
        return False
    return _record(
        source=ResultSource.TOURNAMENT,
        family=family,
        game=tournament.game,
        tournament=tournament,
        places=places,
        finished_at=tournament.finished_at or tournament.started_at or tournament.created_at,
    )


def record_new_results() -> int:
    """Record every result that became final since the last scan; returns how many were recorded.

    Rounds are found through their `round_over` game event, scanned from the last event seen less a margin
    (RAMINO_RATINGS_EVENT_MARGIN ids): an event committed after a later-numbered one is still found, and a
    round recorded already is skipped. Finished tournaments are few: every one without a result is recorded."""
    cursor, _ = RatingsCursor.objects.get_or_create(pk=1)
    start = max(0, cursor.last_event_id - settings.RAMINO_RATINGS_EVENT_MARGIN)
    events = (
        GameEvent.objects.filter(pk__gt=start, kind=ROUND_OVER, round__isnull=False)
        .exclude(round__rated_result__isnull=False)
        .select_related("round__game__table")
        .order_by("pk")
    )
    recorded = 0
    last_seen = cursor.last_event_id
    for event in events.iterator(chunk_size=500):
        last_seen = max(last_seen, event.pk)
        assert event.round is not None
        recorded += record_round(event.round)
    newest = GameEvent.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    RatingsCursor.objects.filter(pk=1, last_event_id__lt=max(last_seen, newest)).update(
        last_event_id=max(last_seen, newest)
    )
    finished = Tournament.objects.filter(status=TournamentStatus.FINISHED, rated_result__isnull=True)
    for tournament in finished.iterator():
        recorded += record_tournament(tournament)
    return recorded

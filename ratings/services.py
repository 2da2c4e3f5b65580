"""Applying final results to ratings, in order, once each; and rebuilding every rating from the results.

One writer at a time: the cursor row is locked for the whole application, so `sequence` is the order results
were applied in, and a rebuild that replays that order reproduces every stored number (docs/ratings.md)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from ratings.maths import Skill, rate
from ratings.models import RatedResult, Rating, RatingChange, RatingsCursor
from ratings.results import record_new_results

# Results applied per transaction: a backlog is worked through in short transactions.
BATCH = 500


def _apply(result: RatedResult, sequence: int) -> None:
    player_ids = [int(key) for key in result.places]
    current = {r.player_id: r for r in Rating.objects.filter(family=result.family, player_id__in=player_ids)}
    before = {str(pid): Skill(current[pid].mu, current[pid].sigma) for pid in current}
    after = rate(before, {key: int(place) for key, place in result.places.items()})
    changes: list[RatingChange] = []
    for key, skill in sorted(after.items()):
        pid = int(key)
        rating = current.get(pid) or Rating(player_id=pid, family=result.family)
        old = Skill(rating.mu, rating.sigma)
        rating.mu, rating.sigma, rating.rating = skill.mu, skill.sigma, skill.rating
        rating.games += 1
        rating.save()
        changes.append(
            RatingChange(
                result=result,
                player_id=pid,
                family=result.family,
                place=int(result.places[key]),
                sequence=sequence,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=skill.mu,
                sigma_after=skill.sigma,
                rating_after=skill.rating,
                games_after=rating.games,
                finished_at=result.finished_at,
            )
        )
    RatingChange.objects.bulk_create(changes)
    result.sequence = sequence
    result.save(update_fields=["sequence"])


def apply_pending(*, limit: int | None = None) -> int:
    """Apply the recorded results not applied yet, oldest recorded first; returns how many."""
    applied = 0
    while limit is None or applied < limit:
        with transaction.atomic():
            cursor = RatingsCursor.objects.select_for_update().get_or_create(pk=1)[0]
            batch = min(BATCH, limit - applied) if limit is not None else BATCH
            pending = list(RatedResult.objects.filter(sequence__isnull=True).order_by("pk")[:batch])
            for result in pending:
                cursor.last_sequence += 1
                _apply(result, cursor.last_sequence)
            cursor.save(update_fields=["last_sequence"])
        applied += len(pending)
        if len(pending) < batch:
            break
    return applied


def update_ratings() -> int:
    """The periodic job: record what became final, then apply it. Safe to run twice or concurrently."""
    record_new_results()
    return apply_pending()


@dataclass(frozen=True)
class Difference:
    player_id: int
    family: str
    stored: tuple[float, float, int, int] | None
    rebuilt: tuple[float, float, int, int] | None


def replay(results: Iterable[RatedResult]) -> dict[tuple[int, str], tuple[float, float, int, int]]:
    """Every (player, family)'s (mu, sigma, rating, games) after the results, in the order given."""
    skills: dict[tuple[int, str], Skill] = {}
    games: dict[tuple[int, str], int] = {}
    for result in results:
        before = {
            key: skills[(int(key), result.family)]
            for key in result.places
            if (int(key), result.family) in skills
        }
        for key, skill in rate(before, {k: int(v) for k, v in result.places.items()}).items():
            skills[(int(key), result.family)] = skill
            games[(int(key), result.family)] = games.get((int(key), result.family), 0) + 1
    return {k: (s.mu, s.sigma, s.rating, games[k]) for k, s in skills.items()}


def differences() -> list[Difference]:
    """Stored ratings against a replay of the applied results in their order (empty when they agree)."""
    rebuilt = replay(RatedResult.objects.filter(sequence__isnull=False).order_by("sequence").iterator())
    stored = {
        (r.player_id, r.family): (r.mu, r.sigma, r.rating, r.games) for r in Rating.objects.all().iterator()
    }
    return [
        Difference(player_id=key[0], family=key[1], stored=stored.get(key), rebuilt=rebuilt.get(key))
        for key in sorted(set(rebuilt) | set(stored))
        if stored.get(key) != rebuilt.get(key)
    ]


def rebuild() -> int:
    """Every rating and its history recomputed from scratch from the results, in their applied order (results
    not applied yet are applied after them). Returns the number of results replayed."""
    with transaction.atomic():
        cursor = RatingsCursor.objects.select_for_update().get_or_create(pk=1)[0]
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        ordered = list(RatedResult.objects.filter(sequence__isnull=False).order_by("sequence"))
        RatedResult.objects.filter(sequence__isnull=False).update(sequence=None)
        sequence = 0
        for result in ordered:
            sequence += 1
            _apply(result, sequence)
        cursor.last_sequence = sequence
        cursor.save(update_fields=["last_sequence"])
    return sequence + apply_pending()

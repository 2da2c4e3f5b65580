"""The entry rules at registration (docs/rules.md "Entry rules"). `refuse` runs inside registration's
transaction, after the tournament's lock and before any chip moves, so a refusal changes nothing: 403
`tournament.entry_rule` with the rule in `details`. A private tournament is found only by its code: by its id it
answers 404 to anyone not entered (and not staff), as a private table does.

The ratings live in the ratings app, which reads the tournaments: it registers its reader here when it is ready
(`register_rating_reader`), so the games import nothing of it (tests/test_architecture.py: no app-level cycle)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AnonymousUser, User

from tournaments.engine import Ruleset
from tournaments.entry_rules import rules
from tournaments.errors import Forbidden, NotFound, PlayCode
from tournaments.tournament.models import LIVE_ENTRY_STATUSES, Tournament, TournamentEntry

# (user id, family) -> (rating, rated results); a player with no rating: the starting rating and 0.
RatingReader = Callable[[int, str], tuple[int, int]]
_reader: RatingReader | None = None

# The private tables' alphabet: no 0/O, 1/I/L, 5/S or 2/Z (codes are read aloud and typed from a phone).
CODE_ALPHABET = "346789ABCDEFGHJKMNPQRTUVWXY"
CODE_LENGTH = 8


def register_rating_reader(reader: RatingReader) -> None:
    global _reader
    _reader = reader


def family_of(game: str) -> str:
    return str(Ruleset.preset(game).family)


def rules_of(tournament: Tournament) -> rules.EntryRules:
    return rules.EntryRules(
        min_rating=tournament.min_rating,
        max_rating=tournament.max_rating,
        max_rated_results=tournament.max_rated_results,
    )


def standing(*, tournament: Tournament, user: User) -> tuple[int, int]:
    """(rating, rated results) of `user` in the tournament's game family."""
    if _reader is None:
        raise RuntimeError("No rating reader registered: the ratings app registers it when it is ready.")
    return _reader(user.pk, family_of(tournament.game))


def refusal_for(*, tournament: Tournament, user: User) -> rules.Refusal | None:
    """The entry rule refusing `user`, or None (also what the API's `entry_rules` says the caller may do)."""
    checked = rules_of(tournament)
    if not checked.asks_ratings:
        return None
    rating, results = standing(tournament=tournament, user=user)
    return rules.refusal(checked, rating=rating, rated_results=results)


def _entered(tournament: Tournament, user: User | AnonymousUser) -> bool:
    return bool(
        user.is_authenticated
        and TournamentEntry.objects.filter(
            tournament=tournament, player_id=user.pk, status__in=LIVE_ENTRY_STATUSES
        ).exists()
    )


def may_see(*, tournament: Tournament, user: User | AnonymousUser) -> bool:
    """A private tournament is seen by its entrants, its creator and staff only."""
    if not tournament.private:
        return True
    if user.is_authenticated and (getattr(user, "is_staff", False) or tournament.created_by_id == user.pk):
        return True
    return _entered(tournament, user)


def refuse_unseen(*, tournament: Tournament, user: User | AnonymousUser) -> None:
    if not may_see(tournament=tournament, user=user):
        raise NotFound("No such tournament.", code=PlayCode.TOURNAMENT_NOT_FOUND)


def refuse_unseen_id(*, tournament_id: int, user: User | AnonymousUser) -> None:
    """`refuse_unseen` by id, reading the tournament only when it is private (one indexed look-up)."""
    private = Tournament.objects.filter(pk=tournament_id, private=True).first()
    if private is not None:
        refuse_unseen(tournament=private, user=user)


def refuse(*, tournament: Tournament, user: User, by_code: bool) -> None:
    """Raise the refusal of `user`'s entry by the tournament's entry rules (the caller holds its lock)."""
    if tournament.private and not by_code and not may_see(tournament=tournament, user=user):
        raise NotFound("No such tournament.", code=PlayCode.TOURNAMENT_NOT_FOUND)
    found = refusal_for(tournament=tournament, user=user)
    if found is None:
        return
    details = {"rule": found.rule, **found.details}
    if found.rule == rules.RATING_BAND:
        raise Forbidden(
            "Your rating is outside this tournament's rating band.",
            code=PlayCode.TOURNAMENT_ENTRY_RULE,
            details=details,
        )
    raise Forbidden(
        "This tournament is for newcomers: you have too many rated results.",
        code=PlayCode.TOURNAMENT_ENTRY_RULE,
        details=details,
    )


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    return "".join(code.split()).upper()


def by_code(code: Any) -> Tournament:
    """The private tournament joined with `code` (404 for any other code)."""
    found = (
        Tournament.objects.filter(code=normalize_code(code), private=True).first()
        if isinstance(code, str) and code.strip()
        else None
    )
    if found is None:
        raise NotFound("No tournament has this code.", code=PlayCode.TOURNAMENT_NOT_FOUND)
    return found

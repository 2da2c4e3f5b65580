"""What a tournament may be: the one check of its settings (the API and the admin's form both call it), and
creating one with its prize pool account. The game and its options are checked by the tables' own check,
`table_settings.validate`, which asks the engine (docs/tables.md "Settings")."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from ledger import services as ledger
from ledger.models import SITE_CHIPS, AccountKind
from tournaments.errors import Conflict, InvalidRequest, PlayCode
from tournaments.models import ONE_TABLE_MAX_ENTRANTS, Tournament, TournamentKind, TournamentStatus
from tournaments.services import table_settings
from tournaments.services.prizes import PERCENT
from tournaments.services.table_settings import MAX_BUY_IN, MAX_MULTIPLIER
from tournaments.services.tournament_status import lock_tournament

MAX_TARGET_SCORE = 1_000_000
MAX_ROUNDS = 3
MAX_TIEBREAK_ROUNDS = 20
DEFAULT_TIEBREAK_ROUNDS = 5
MAX_NAME = 100


@dataclass(frozen=True)
class TournamentSettings:
    name: str
    kind: str
    game: str
    options: dict[str, Any]
    buy_in: int
    fee: int
    guarantee: int
    max_entrants: int
    min_entrants: int
    target_score: int | None
    rounds: int | None
    tiebreak_rounds: int
    multiplier: int
    payouts: list[int] = field(default_factory=lambda: [PERCENT])
    seats: int = 0


def _invalid(field_name: str, message: str, **details: Any) -> InvalidRequest:
    return InvalidRequest(message, code=PlayCode.TOURNAMENT_INVALID, details={"field": field_name, **details})


def _integer(field_name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _invalid(
            field_name, f"{field_name} must be an integer from {low} to {high}.", minimum=low, maximum=high
        )
    return int(value)


def _payouts(value: Any, places: int) -> list[int]:
    if (
        not isinstance(value, list)
        or not 1 <= len(value) <= places
        or any(isinstance(p, bool) or not isinstance(p, int) or p < 1 for p in value)
        or sum(value) != PERCENT
        or any(a < b for a, b in itertools.pairwise(value))
    ):
        raise InvalidRequest(
            f"payouts must be 1 to {places} positive integer percentages by place, never rising, summing to 100.",
            code=PlayCode.TOURNAMENT_INVALID_PAYOUTS,
            details={"field": "payouts", "places": places},
        )
    return [int(p) for p in value]


def validate(
    *,
    name: Any,
    kind: Any,
    game: Any,
    options: Any,
    buy_in: Any,
    fee: Any = 0,
    guarantee: Any = 0,
    max_entrants: Any,
    min_entrants: Any = 2,
    target_score: Any = None,
    rounds: Any = None,
    tiebreak_rounds: Any = DEFAULT_TIEBREAK_ROUNDS,
    multiplier: Any = 1,
    payouts: Any = None,
) -> TournamentSettings:
    """The settings, checked; else `InvalidRequest` (400) whose `details["field"]` names the culprit."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise _invalid("name", f"name must be 1 to {MAX_NAME} characters.")
    if kind not in TournamentKind.values:
        raise _invalid("kind", "kind must be quick, single or multi.")
    if kind == TournamentKind.MULTI:
        raise InvalidRequest(
            "Multi-table tournaments are not available yet.",
            code=PlayCode.TOURNAMENT_KIND_UNAVAILABLE,
            details={"field": "kind"},
        )
    max_entrants = _integer("max_entrants", max_entrants, 2, ONE_TABLE_MAX_ENTRANTS)
    min_entrants = _integer("min_entrants", min_entrants, 2, max_entrants)
    # The table seats everyone: the preset must allow that many players.
    table = table_settings.validate(
        game=game,
        options=options,
        seats=max_entrants,
        pcr=1,
        min_buy_in=1,
        max_buy_in=1,
        multiplier=multiplier,
    )
    if kind == TournamentKind.SINGLE:
        target_score = _integer("target_score", target_score, 1, MAX_TARGET_SCORE)
        if rounds is not None:
            raise _invalid("rounds", "A single-table tournament plays to target_score; rounds must be null.")
    else:
        rounds = _integer("rounds", rounds, 1, MAX_ROUNDS)
        if target_score is not None:
            raise _invalid("target_score", "A quick game plays `rounds` rounds; target_score must be null.")
    return TournamentSettings(
        name=name.strip(),
        kind=kind,
        game=table.game,
        options=table.options,
        buy_in=_integer("buy_in", buy_in, 0, MAX_BUY_IN),
        fee=_integer("fee", fee, 0, MAX_BUY_IN),
        guarantee=_integer("guarantee", guarantee, 0, MAX_BUY_IN),
        max_entrants=max_entrants,
        min_entrants=min_entrants,
        target_score=target_score,
        rounds=rounds,
        tiebreak_rounds=_integer("tiebreak_rounds", tiebreak_rounds, 0, MAX_TIEBREAK_ROUNDS),
        multiplier=_integer("multiplier", multiplier, 1, MAX_MULTIPLIER),
        payouts=_payouts([PERCENT] if payouts is None else payouts, max_entrants),
        seats=max_entrants,
    )


def create_tournament(*, user: User, settings: Mapping[str, Any]) -> Tournament:
    """A new tournament, open for registration, with its (empty) prize pool account."""
    checked = validate(**settings)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            **asdict(checked), status=TournamentStatus.REGISTERING, created_by=user
        )
        tournament.pool_account = ledger.open_account(
            kind=AccountKind.PRIZE_POOL, chip_type=SITE_CHIPS, reference=f"tournament:{tournament.pk}"
        )
        tournament.save(update_fields=["pool_account"])
    return tournament


def update_tournament(*, tournament_id: int, settings: Mapping[str, Any]) -> Tournament:
    """An admin's change, before anyone has registered (an entrant paid for what they saw)."""
    checked = validate(**settings)
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING) or (
            tournament.entries.exists()
        ):
            raise Conflict(
                "A tournament can be changed only before anyone registers.",
                code=PlayCode.TOURNAMENT_NOT_EDITABLE,
            )
        for name, value in asdict(checked).items():
            setattr(tournament, name, value)
        tournament.save()
    return tournament

"""What a tournament may be: the one check of its settings (the API, the admin's form and the templates all call
it), and creating one with its prize pool account. The game and its options are checked by the tables' own
check, `table_settings.validate`, which asks the engine (docs/tables.md "Settings"). A multi-table tournament is
`scheduled` until `registration_opens_at`, then `registering` until `starts_at` (the beat job,
`tournament_schedule.run_schedule`)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ledger.models import SITE_CHIPS, AccountKind
from ledger.services import accounts
from tournaments.deals import options as deal_options
from tournaments.entry_rules import options as entry_options
from tournaments.entry_rules.services import new_code
from tournaments.errors import Conflict, InvalidRequest, PlayCode
from tournaments.live import MAX_BUY_IN, MAX_MULTIPLIER, MAX_PCR, MIN_SEATS, table_settings
from tournaments.satellites import settings as ticket_settings
from tournaments.tournament.formats import options as format_options
from tournaments.tournament.models import (
    MULTI_MAX_ENTRANTS,
    ONE_TABLE_MAX_ENTRANTS,
    Tournament,
    TournamentKind,
    TournamentStatus,
    TournamentTemplate,
)
from tournaments.tournament.payouts import PERCENT
from tournaments.tournament.status import lock_tournament

MAX_TARGET_SCORE = 1_000_000
MAX_ROUNDS = 3
MAX_TIEBREAK_ROUNDS = 20
DEFAULT_TIEBREAK_ROUNDS = 5
MAX_NAME = 100
# Multi-table tournaments (docs/tournaments.md "Settings of a multi-table tournament").
MAX_LEVELS = 50
MAX_ROUNDS_PER_LEVEL = 100
MAX_PAID_PLACES = 1000
DEFAULT_MULTI_SEATS = 4
# The settings only a multi-table tournament takes; a one-table one leaves them out (or at these neutral values,
# which are what a one-table tournament stores).
MULTI_ONLY = (
    "starting_stack",
    "pcr_schedule",
    "rounds_per_level",
    "starts_at",
    "registration_opens_at",
    "late_registration_levels",
    "reentry",
    "seats",
)
NEUTRAL: dict[str, Any] = {"late_registration_levels": 0, "reentry": False, "pcr_schedule": []}


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
    starting_stack: int | None = None
    pcr_schedule: list[int] = field(default_factory=list)
    rounds_per_level: int | None = None
    starts_at: datetime | None = None
    registration_opens_at: datetime | None = None
    late_registration_levels: int = 0
    reentry: bool = False
    # Satellites and tickets (`satellites.settings`).
    satellite_target_id: int | None = None
    satellite_template_id: int | None = None
    tickets_only: bool = False
    # Rebuys, the add-on and progressive knockout (`format_options`).
    rebuy_levels: int = 0
    rebuy_cost: int = 0
    rebuy_fee: int = 0
    rebuy_chips: int | None = None
    max_rebuys: int = 0
    addon_cost: int = 0
    addon_fee: int = 0
    addon_chips: int = 0
    addon_seconds: int = 60
    bounty_share: int = 0

    def initial_status(self, now: datetime) -> str:
        """Multi: scheduled while its registration is not yet open; everything else registers at once."""
        if self.registration_opens_at is not None and self.registration_opens_at > now:
            return TournamentStatus.SCHEDULED
        return TournamentStatus.REGISTERING


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
            "payouts must be 1 to %(places)s positive integer percentages by place, never rising, summing to 100.",
            params={"places": places},
            code=PlayCode.TOURNAMENT_INVALID_PAYOUTS,
            details={"field": "payouts", "places": places},
        )
    return [int(p) for p in value]


def _moment(field_name: str, value: Any) -> datetime:
    if not isinstance(value, datetime) or timezone.is_naive(value):
        raise _invalid(field_name, f"{field_name} must be a date and time with its time zone.")
    return value


def _pcr_schedule(value: Any) -> list[int]:
    if (
        not isinstance(value, list)
        or not 1 <= len(value) <= MAX_LEVELS
        or any(isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= MAX_PCR for p in value)
    ):
        raise _invalid(
            "pcr_schedule",
            f"pcr_schedule must be 1 to {MAX_LEVELS} PCRs by level, each an integer from 1 to {MAX_PCR}.",
            levels=MAX_LEVELS,
            maximum=MAX_PCR,
        )
    return [int(p) for p in value]


def _boolean(field_name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _invalid(field_name, f"{field_name} must be true or false.")
    return value


def _no_multi_fields(values: Mapping[str, Any], *, max_entrants: int) -> None:
    for name in MULTI_ONLY:
        value = values[name]
        if (
            value is None
            or (name in NEUTRAL and value == NEUTRAL[name])
            or (name == "seats" and value == max_entrants)
        ):
            continue
        raise _invalid(name, f"{name} applies to multi-table tournaments only; leave it out.")


def validate(
    *,
    satellite_target_id: Any = None,
    satellite_template_id: Any = None,
    tickets_only: Any = None,
    own_id: int | None = None,
    **settings: Any,
) -> TournamentSettings:
    """The settings, checked (`_validate_settings`), with a satellite's target and the tickets-only rule
    (`satellites.settings.check`; `own_id`: the tournament being changed)."""
    checked = _validate_settings(**settings)
    return replace(
        checked,
        **ticket_settings.check(
            satellite_target=satellite_target_id,
            satellite_template=satellite_template_id,
            tickets_only=tickets_only,
            own_id=own_id,
        ),
    )


def _validate_settings(
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
    seats: Any = None,
    starting_stack: Any = None,
    pcr_schedule: Any = None,
    rounds_per_level: Any = None,
    starts_at: Any = None,
    registration_opens_at: Any = None,
    late_registration_levels: Any = None,
    reentry: Any = None,
    now: datetime | None = None,
    **formats: Any,
) -> TournamentSettings:
    """The settings, checked; else `InvalidRequest` (400) whose `details["field"]` names the culprit. A multi-table
    tournament's `starts_at` must be after `now` (default: the present). `formats`: the options of
    `format_options.FIELDS` (any other name: TypeError)."""
    unknown = sorted(set(formats) - set(format_options.FIELDS))
    if unknown:  # as for any other keyword this function does not take
        raise TypeError(f"validate() got an unexpected keyword argument {unknown[0]!r}")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise _invalid("name", f"name must be 1 to {MAX_NAME} characters.")
    if kind not in TournamentKind.values:
        raise _invalid("kind", "kind must be quick, single or multi.")
    if kind == TournamentKind.MULTI:
        return _validate_multi(
            name=name,
            game=game,
            options=options,
            buy_in=buy_in,
            fee=fee,
            guarantee=guarantee,
            max_entrants=max_entrants,
            min_entrants=min_entrants,
            target_score=target_score,
            rounds=rounds,
            tiebreak_rounds=tiebreak_rounds,
            multiplier=multiplier,
            payouts=payouts,
            seats=seats,
            starting_stack=starting_stack,
            pcr_schedule=pcr_schedule,
            rounds_per_level=rounds_per_level,
            starts_at=starts_at,
            registration_opens_at=registration_opens_at,
            late_registration_levels=late_registration_levels,
            reentry=reentry,
            now=timezone.now() if now is None else now,
            formats=formats,
        )
    max_entrants = _integer("max_entrants", max_entrants, 2, ONE_TABLE_MAX_ENTRANTS)
    min_entrants = _integer("min_entrants", min_entrants, 2, max_entrants)
    _no_multi_fields(
        {
            "seats": seats,
            "starting_stack": starting_stack,
            "pcr_schedule": pcr_schedule,
            "rounds_per_level": rounds_per_level,
            "starts_at": starts_at,
            "registration_opens_at": registration_opens_at,
            "late_registration_levels": late_registration_levels,
            "reentry": reentry,
        },
        max_entrants=max_entrants,
    )
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
        **format_options.check(formats, multi=False, levels=0),
    )


def _validate_multi(
    *, name: str, game: Any, options: Any, now: datetime, formats: Mapping[str, Any], **v: Any
) -> TournamentSettings:
    """A multi-table tournament (docs/tournaments.md "Settings of a multi-table tournament"): tables of
    `seats`, a starting stack, a PCR schedule by level, a scheduled start; no `target_score` and no
    `rounds`."""
    for unused in ("target_score", "rounds"):
        if v[unused] is not None:
            raise _invalid(
                unused,
                f"A multi-table tournament plays until one player has the chips; {unused} must be null.",
            )
    # The game and its options as a table's; the seats up to the preset's maximum (the engine says).
    multiplier = _integer("multiplier", v["multiplier"], 1, MAX_MULTIPLIER)
    table = table_settings.validate(
        game=game, options=options, seats=MIN_SEATS, pcr=1, min_buy_in=1, max_buy_in=1, multiplier=multiplier
    )
    most = table_settings.max_seats(game=table.game, options=table.options)
    seats = _integer("seats", DEFAULT_MULTI_SEATS if v["seats"] is None else v["seats"], MIN_SEATS, most)
    starting_stack = _integer("starting_stack", v["starting_stack"], 1, MAX_BUY_IN)
    pcr_schedule = _pcr_schedule(v["pcr_schedule"])
    rounds_per_level = _integer("rounds_per_level", v["rounds_per_level"], 1, MAX_ROUNDS_PER_LEVEL)
    starts_at = _moment("starts_at", v["starts_at"])
    if starts_at <= now:
        raise _invalid("starts_at", "starts_at must be in the future.")
    opens_at = v["registration_opens_at"]
    if opens_at is not None:
        opens_at = _moment("registration_opens_at", opens_at)
        if opens_at > starts_at:
            raise _invalid("registration_opens_at", "registration_opens_at must be at or before starts_at.")
    max_entrants = _integer("max_entrants", v["max_entrants"], 2, MULTI_MAX_ENTRANTS)
    min_entrants = _integer("min_entrants", v["min_entrants"], 2, max_entrants)
    late = v["late_registration_levels"]
    late = _integer("late_registration_levels", 0 if late is None else late, 0, len(pcr_schedule))
    reentry = _boolean("reentry", False if v["reentry"] is None else v["reentry"])
    payouts = v["payouts"]
    return TournamentSettings(
        name=name.strip(),
        kind=TournamentKind.MULTI,
        game=table.game,
        options=table.options,
        buy_in=_integer("buy_in", v["buy_in"], 0, MAX_BUY_IN),
        fee=_integer("fee", v["fee"], 0, MAX_BUY_IN),
        guarantee=_integer("guarantee", v["guarantee"], 0, MAX_BUY_IN),
        max_entrants=max_entrants,
        min_entrants=min_entrants,
        target_score=None,
        rounds=None,
        tiebreak_rounds=_integer("tiebreak_rounds", v["tiebreak_rounds"], 0, MAX_TIEBREAK_ROUNDS),
        multiplier=multiplier,
        payouts=_payouts([PERCENT] if payouts is None else payouts, min(max_entrants, MAX_PAID_PLACES)),
        seats=seats,
        starting_stack=starting_stack,
        pcr_schedule=pcr_schedule,
        rounds_per_level=rounds_per_level,
        starts_at=starts_at,
        registration_opens_at=opens_at,
        late_registration_levels=late,
        reentry=reentry,
        **format_options.check(formats, multi=True, levels=len(pcr_schedule)),
    )


def format_settings(settings: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the settings `validate` checks, the formats' own checked: entry rules and the final-table deal)."""
    rest, entry = entry_options.split(settings)
    rest, deal = deal_options.split(rest)
    return rest, {**entry, **deal}


def create_tournament(
    *, user: User, settings: Mapping[str, Any], template: TournamentTemplate | None = None
) -> Tournament:
    """A new tournament with its (empty) prize pool account: registering, or scheduled until its
    `registration_opens_at` (multi). `template`: the recurring template it comes from."""
    settings, formats = format_settings(settings)
    checked = validate(**settings)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            **asdict(checked),
            **formats,
            code=new_code() if formats["private"] else None,
            status=checked.initial_status(timezone.now()),
            created_by=user,
            template=template,
        )
        tournament.pool_account = accounts.open_account(
            kind=AccountKind.PRIZE_POOL, chip_type=SITE_CHIPS, reference=f"tournament:{tournament.pk}"
        )
        tournament.save(update_fields=["pool_account"])
    return tournament


def update_tournament(*, tournament_id: int, settings: Mapping[str, Any]) -> Tournament:
    """An admin's change, before anyone has registered (an entrant paid for what they saw)."""
    settings, formats = format_settings(settings)
    checked = validate(**settings, own_id=tournament_id)
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status not in (TournamentStatus.SCHEDULED, TournamentStatus.REGISTERING) or (
            tournament.entries.exists()
        ):
            raise Conflict(
                "A tournament can be changed only before anyone registers.",
                code=PlayCode.TOURNAMENT_NOT_EDITABLE,
            )
        for name, value in {**asdict(checked), **formats}.items():
            setattr(tournament, name, value)
        if tournament.private != (tournament.code is not None):
            tournament.code = new_code() if tournament.private else None
        tournament.status = checked.initial_status(timezone.now())
        tournament.save()
    return tournament

"""Shapes of the tournament endpoints (docs/api.md "Tournaments"); what a tournament may be is checked by
`tournament_setup.validate` (the admin's form too), whose bounds these repeat for the schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.fields import (
    MAX_DAYS_AHEAD,
    HorizonDateTimeField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
)
from ledger.models import TransferKind
from tournaments.live import MAX_BUY_IN, MAX_MULTIPLIER, MAX_PCR, PresetField
from tournaments.live.models import SeatStatus, TableStatus
from tournaments.tournament import setup
from tournaments.tournament.formats.serializers import FormatOptionsInput, FormatOptionsOutput
from tournaments.tournament.models import (
    MULTI_MAX_ENTRANTS,
    EntryStatus,
    TournamentKind,
    TournamentStage,
    TournamentStatus,
)


class TournamentCreateSerializer(FormatOptionsInput):
    name = StrictCharField(max_length=setup.MAX_NAME)
    kind = serializers.ChoiceField(choices=TournamentKind.choices)
    game = PresetField(max_length=32)
    options = serializers.DictField(required=False, default=dict)
    buy_in = StrictIntegerField(min_value=0, max_value=MAX_BUY_IN)
    fee = StrictIntegerField(min_value=0, max_value=MAX_BUY_IN, required=False, default=0)
    guarantee = StrictIntegerField(min_value=0, max_value=MAX_BUY_IN, required=False, default=0)
    max_entrants = StrictIntegerField(
        help_text=f"quick and single: 2-4; multi: 2 to {MULTI_MAX_ENTRANTS} (400 tournament.invalid otherwise)"
    )
    min_entrants = StrictIntegerField(required=False, default=2, help_text="2 to max_entrants")
    target_score = StrictIntegerField(
        min_value=1,
        max_value=setup.MAX_TARGET_SCORE,
        required=False,
        allow_null=True,
        default=None,
    )
    rounds = StrictIntegerField(
        min_value=1, max_value=setup.MAX_ROUNDS, required=False, allow_null=True, default=None
    )
    tiebreak_rounds = StrictIntegerField(
        min_value=0,
        max_value=setup.MAX_TIEBREAK_ROUNDS,
        required=False,
        default=setup.DEFAULT_TIEBREAK_ROUNDS,
    )
    multiplier = StrictIntegerField(min_value=1, max_value=MAX_MULTIPLIER, required=False, default=1)
    payouts = serializers.ListField(
        child=StrictIntegerField(min_value=1, max_value=100),
        required=False,
        default=lambda: [100],
        help_text="Percentages by place (first place first), never rising, summing to 100.",
    )
    # Multi-table only: a quick or single tournament leaves these out. Their ranges are the service's
    # (`setup.validate`, 400 tournament.invalid with details.field), listed in docs/api.md.
    seats = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="multi: seats per table, 2 to the game's most [4]",
    )
    starting_stack = StrictIntegerField(
        required=False, allow_null=True, default=None, help_text="multi: tournament chips per entrant"
    )
    pcr_schedule = serializers.ListField(
        child=StrictIntegerField(),
        required=False,
        allow_null=True,
        default=None,
        help_text=f"multi: the PCR of each level, 1 to {setup.MAX_LEVELS} levels, each 1 to {MAX_PCR}",
    )
    rounds_per_level = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text=f"multi: rounds of a table per level, 1 to {setup.MAX_ROUNDS_PER_LEVEL}",
    )
    starts_at = HorizonDateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text=f"multi: the scheduled start (in the future, at most {MAX_DAYS_AHEAD} days ahead)",
    )
    registration_opens_at = HorizonDateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text="multi: when registration opens (at most starts_at; default: at once)",
    )
    late_registration_levels = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="multi: late registration and re-entry until this level, 0 to the levels [0]",
    )
    reentry = StrictBooleanField(
        required=False, allow_null=True, default=None, help_text="multi: re-entry after busting [false]"
    )


# The response serializers render what the selectors read (the answer is what these make; the schema is read
# off them): model instances or the selectors' small records, named above each.


# A `selectors.Level`.
class LevelSerializer(serializers.Serializer[Any]):
    level = serializers.IntegerField()
    pcr = serializers.IntegerField()
    rounds = serializers.IntegerField(help_text="rounds a table plays at this level")


# A `selectors.PlaceAmount`.
class PlaceAmountSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    percent = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="chips")


# A `selectors.TournamentRow`: the tournament, its counts and the caller's entry.
class TournamentSerializer(FormatOptionsOutput):
    id = serializers.IntegerField(source="tournament.pk")
    name = serializers.CharField(source="tournament.name")
    kind = serializers.ChoiceField(source="tournament.kind", choices=TournamentKind.choices)
    game = PresetField(source="tournament.game")
    options = serializers.DictField(source="tournament.options")
    status = serializers.ChoiceField(source="tournament.status", choices=TournamentStatus.choices)
    buy_in = serializers.IntegerField(source="tournament.buy_in")
    fee = serializers.IntegerField(source="tournament.fee")
    guarantee = serializers.IntegerField(source="tournament.guarantee")
    starting_stack = serializers.IntegerField(
        source="tournament.starting_stack", allow_null=True, help_text="multi only"
    )
    seats = serializers.IntegerField(source="tournament.seats")
    pcr_schedule = serializers.ListField(
        source="tournament.pcr_schedule", child=serializers.IntegerField(), help_text="multi only"
    )
    rounds_per_level = serializers.IntegerField(
        source="tournament.rounds_per_level", allow_null=True, help_text="multi only"
    )
    multiplier = serializers.IntegerField(source="tournament.multiplier")
    target_score = serializers.IntegerField(
        source="tournament.target_score",
        allow_null=True,
        help_text="single: the game ends when a total reaches it",
    )
    rounds = serializers.IntegerField(
        source="tournament.rounds", allow_null=True, help_text="quick: the rounds played"
    )
    tiebreak_rounds = serializers.IntegerField(source="tournament.tiebreak_rounds")
    min_entrants = serializers.IntegerField(source="tournament.min_entrants")
    max_entrants = serializers.IntegerField(source="tournament.max_entrants")
    starts_at = serializers.DateTimeField(
        source="tournament.starts_at",
        allow_null=True,
        help_text="multi only; single and quick start when full",
    )
    registration_opens_at = serializers.DateTimeField(
        source="tournament.registration_opens_at",
        allow_null=True,
        help_text="multi only: when registration opens (status scheduled until then)",
    )
    late_registration_levels = serializers.IntegerField(source="tournament.late_registration_levels")
    reentry = serializers.BooleanField(source="tournament.reentry")
    satellite_target = serializers.IntegerField(
        source="tournament.satellite_target_id",
        allow_null=True,
        help_text='a satellite: the tournament whose tickets are its prizes (docs/rules.md "Satellites")',
    )
    satellite_template = serializers.IntegerField(
        source="tournament.satellite_template_id",
        allow_null=True,
        help_text="a satellite: the recurring tournament whose next tournament its tickets enter",
    )
    tickets_only = serializers.BooleanField(
        source="tournament.tickets_only", help_text="entries paid with a ticket only"
    )
    payouts = serializers.ListField(source="tournament.payouts", child=serializers.IntegerField())
    entrants = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    level = serializers.IntegerField(allow_null=True)
    registered = serializers.BooleanField(help_text="whether the caller has a live entry")
    entry_status = serializers.ChoiceField(
        choices=EntryStatus.choices,
        allow_null=True,
        help_text="the caller's live entry's status (registered, playing, busted, finished), or null: a busted "
        "player may re-enter while late registration lasts (`reentry`)",
    )
    stage = serializers.ChoiceField(
        source="tournament.stage",
        choices=TournamentStage.choices,
        help_text="main, or tiebreak (tie-breaker rounds among the tied)",
    )
    tiebreaks_played = serializers.IntegerField(source="tournament.tiebreaks_played")
    started_at = serializers.DateTimeField(source="tournament.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="tournament.finished_at", allow_null=True)
    error = serializers.CharField(
        allow_null=True,
        help_text="multi: why its scheduled start failed, or null. While `registering`, the last failure of a "
        "start being retried; once `cancelled`, why it could not start (every entry was refunded)",
    )
    start_failures = serializers.IntegerField(
        source="tournament.start_failures", help_text="multi: scheduled start attempts that failed"
    )
    version = serializers.IntegerField(
        source="tournament.version",
        help_text="the version of the tournament's event log: `events/?after=` it for what happens next",
    )
    my_table = serializers.IntegerField(
        allow_null=True,
        help_text="the caller's table in it while they play (their entry `playing`), else null",
    )
    levels = LevelSerializer(
        many=True, help_text="multi: the structure, each level's PCR and rounds (the last lasts to the end)"
    )
    payout_table = PlaceAmountSerializer(
        many=True,
        help_text="each paid place's percentage and chips from the prize pool as it stands (the places the "
        "entrants fill; first place takes what rounding leaves)",
    )
    late_registration_open = serializers.BooleanField(
        help_text="multi: running and still taking late registrations (level <= late_registration_levels)"
    )
    min_rating = serializers.IntegerField(source="tournament.min_rating", allow_null=True)
    max_rating = serializers.IntegerField(source="tournament.max_rating", allow_null=True)
    max_rated_results = serializers.IntegerField(source="tournament.max_rated_results", allow_null=True)
    private = serializers.BooleanField(source="tournament.private")
    code = serializers.CharField(
        source="tournament.code",
        allow_null=True,
        help_text="a private tournament's join code (shown to those who see it: its entrants, creator, staff)",
    )
    freeroll = serializers.SerializerMethodField(help_text="no buy-in and no fee")
    deal_seconds = serializers.IntegerField(source="tournament.deal_seconds")
    deal_keep = serializers.IntegerField(source="tournament.deal_keep")

    @extend_schema_field(serializers.BooleanField())
    def get_freeroll(self, row: Any) -> bool:
        return bool(row.tournament.buy_in == 0 and row.tournament.fee == 0)


# A `TournamentEntry`.
class RegisterSerializer(serializers.Serializer[Any]):
    payment = serializers.ChoiceField(
        choices=["auto", "chips", "ticket"],
        required=False,
        default="auto",
        help_text="auto [default]: a ticket when the player holds one, else chips; chips; ticket (409 "
        "tournament.no_ticket without one)",
    )


class EntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    username = serializers.CharField(source="player.username")
    status = serializers.ChoiceField(choices=EntryStatus.choices)
    registered_at = serializers.DateTimeField()


# A `selectors.Standing`.
class StandingSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(allow_null=True, help_text="null while still playing")
    username = serializers.CharField()
    status = serializers.ChoiceField(
        choices=EntryStatus.choices, help_text="registered, playing, busted or finished"
    )
    total = serializers.IntegerField(allow_null=True, help_text="quick and single: points")
    tiebreak_total = serializers.IntegerField(
        allow_null=True, help_text="points of the tie-breaker rounds, if played"
    )
    chips = serializers.IntegerField(allow_null=True, help_text="multi: tournament chips")
    table = serializers.IntegerField(allow_null=True)
    prize = serializers.IntegerField(help_text="chips paid, 0 until paid")
    bounty = serializers.IntegerField(
        help_text="multi, knockout: the bounty on the player's head (site chips)"
    )
    bounties_won = serializers.IntegerField(help_text="multi, knockout: bounties paid to the player so far")
    rebuys = serializers.IntegerField(help_text="multi: rebuys since the entry's last (re-)entry")
    addon = serializers.BooleanField(help_text="multi: the add-on taken")


class TournamentSeatSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    seat = serializers.IntegerField()
    chips = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=SeatStatus.choices)
    bounty = serializers.IntegerField(help_text="multi, knockout: the bounty on the player's head")


# A `selectors.TournamentTable` (its players `selectors.TableSeat`).
class TournamentTableSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=TableStatus.choices)
    players = TournamentSeatSerializer(many=True)
    level = serializers.IntegerField(allow_null=True)
    pcr = serializers.IntegerField(allow_null=True)


class BustedPlayerSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField()
    player = serializers.CharField()
    place = serializers.IntegerField(
        allow_null=True, help_text="null while late registration could bring players back"
    )


class TournamentEventDataSerializer(serializers.Serializer[Any]):
    """What an event's kind names (docs/api.md, "Tournaments"): each key below where its kinds use it; a kind
    may add its own context, so the object stays open."""

    starts_at = serializers.DateTimeField(required=False, allow_null=True, help_text="registration_open")
    entrants = serializers.IntegerField(required=False, help_text="started; cancelled (too few entrants)")
    tables = serializers.IntegerField(required=False, help_text="started: tables dealt")
    starting_stack = serializers.IntegerField(required=False, help_text="started")
    level = serializers.IntegerField(required=False, help_text="started, level")
    table = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="busted, late_registered, reentered, table_broken, final_table",
    )
    round = serializers.IntegerField(required=False, help_text="busted: the table's round")
    group = serializers.IntegerField(required=False, help_text="busted: the bust group's number")
    players = BustedPlayerSerializer(many=True, required=False, help_text="busted")
    players_left = serializers.IntegerField(required=False, help_text="busted")
    entry = serializers.IntegerField(required=False, help_text="late_registered, reentered")
    player = serializers.CharField(required=False, help_text="late_registered, reentered")
    reentries = serializers.IntegerField(required=False, help_text="late_registered, reentered")
    moves = serializers.ListField(
        child=serializers.DictField(), required=False, help_text="moved: each player moved, from and to"
    )
    why = serializers.CharField(required=False, help_text="moved")
    on = serializers.BooleanField(required=False, help_text="round_for_round")
    sync_round = serializers.IntegerField(required=False, help_text="round_for_round, sync_round")
    winners = serializers.ListField(child=serializers.CharField(), required=False, help_text="finished")
    prizes = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="finished: chips by player"
    )
    shares = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="cancelled (running): chips by player"
    )
    refunded = serializers.IntegerField(required=False, help_text="cancelled (before the start): refunds")
    reason = serializers.CharField(required=False, help_text="cancelled: why")
    game = serializers.IntegerField(required=False, help_text="started (one table): the game's id")
    points = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="round_result: the round's points by player",
    )
    redeal = serializers.BooleanField(required=False, help_text="round_result: a refused deal, not counted")
    totals = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="round_result: main rounds' totals"
    )
    tiebreak_totals = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="round_result: the tie-breaker's totals (empty for a main round)",
    )
    tiebreak = serializers.BooleanField(required=False, help_text="round_result: a tie-breaker round")
    tied = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="tiebreak: the players tied at the top"
    )
    out = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="tiebreak: the others, out and placed"
    )
    from_round = serializers.IntegerField(required=False, help_text="tiebreak: the first tie-breaker round")
    places = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="finished (one table): places by player"
    )


@extend_schema_field(TournamentEventDataSerializer)
class TournamentEventDataField(serializers.JSONField):
    """An event's `data` as it was written: the schema names its keys (TournamentEventDataSerializer), a kind
    may add its own beside them."""


# A `TournamentEvent`.
class TournamentEventSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    kind = serializers.CharField(
        help_text="registration_open, started, level, busted, late_registered, reentered, moved, table_broken, "
        "final_table, round_for_round, sync_round, round_result, tiebreak, paused, resumed, finished, cancelled "
        "(docs/api.md)"
    )
    created_at = serializers.DateTimeField()

    def get_fields(self) -> dict[str, Any]:
        # `data` would shadow the serializer's own `data`: declared through the fields mapping.
        fields: dict[str, Any] = dict(super().get_fields())
        fields["data"] = TournamentEventDataField(help_text="what the kind names (docs/api.md)")
        return fields


# A `multi_table.selectors.EventPage`.
class TournamentEventsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(help_text="the tournament's version now")
    events = TournamentEventSerializer(many=True)
    next_after = serializers.IntegerField(help_text="`after` for the next call")


class PrizeSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(allow_null=True)
    username = serializers.CharField()
    amount = serializers.IntegerField()
    transfer = serializers.IntegerField()


# A `selectors.PayoutReport`.
class PayoutReportSerializer(serializers.Serializer[Any]):
    entrants = serializers.IntegerField()
    buy_ins = serializers.IntegerField()
    fees = serializers.IntegerField()
    guarantee_paid = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    prizes = PrizeSerializer(many=True)


class LegSerializer(serializers.Serializer[Any]):
    account = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    amount = serializers.IntegerField()


class CancelTransferSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=TransferKind.choices)
    legs = LegSerializer(many=True)


# A `selectors.Cancelled` (its transfers `selectors.TransferLegs`).
class CancelSerializer(serializers.Serializer[Any]):
    tournament = TournamentSerializer()
    transfers = CancelTransferSerializer(many=True)


class LobbyVersionSerializer(serializers.Serializer[Any]):
    version = serializers.CharField(
        help_text="a digest of the lobby's lists (public tables and their seats, tournaments and their entrants); "
        "it changes when they do, and is also the answer's ETag"
    )

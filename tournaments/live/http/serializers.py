"""Thin input validation and the answers' shapes.

Tables and rounds are rendered through their serializers, which are what the answer holds (a table from
`selectors.TableRow`, its players from their `Seat`s). The game view, a
move's answer and the events are on the measured hot path (docs/performance.md): selectors and play build
them as dicts and these serializers only describe them; the conformance check (tests/api/conformance.py),
run on every answer of the test suite, proves the two say the same, field by field."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from api.fields import StrictBooleanField, StrictCharField, StrictIntegerField
from tournaments.engine.state import PHASES
from tournaments.live.http.schema_fields import PresetField, RoundDetailsField
from tournaments.live.models import GameStatus, SeatStatus, TableStatus
from tournaments.live.moves.body import MoveField, StepMoveField
from tournaments.live.rounds.end import ROW_KINDS
from tournaments.live.tables import settings as table_settings
from tournaments.live.tables.settings import MAX_BUY_IN


class TableCreateSerializer(serializers.Serializer[Any]):
    """The request's shape; what a table may be is checked by `table_settings.validate` (the admin's too),
    whose bounds these repeat for the schema and for field-by-field errors."""

    game = PresetField(max_length=32)
    options = serializers.DictField(required=False, default=dict)
    seats = StrictIntegerField(min_value=table_settings.MIN_SEATS, max_value=10)
    pcr = StrictIntegerField(min_value=1, max_value=table_settings.MAX_PCR)
    min_buy_in = StrictIntegerField(min_value=1, max_value=MAX_BUY_IN)
    max_buy_in = StrictIntegerField(min_value=1, max_value=MAX_BUY_IN)
    multiplier = StrictIntegerField(
        min_value=1, max_value=table_settings.MAX_MULTIPLIER, required=False, default=1
    )
    private = StrictBooleanField(required=False, default=False)
    buy_in = StrictIntegerField(
        min_value=1,
        max_value=MAX_BUY_IN,
        required=False,
        help_text="the creator's buy-in: given, the creator is seated at the new table with it (as `sit`)",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["max_buy_in"] < attrs["min_buy_in"]:
            raise serializers.ValidationError({"max_buy_in": "Must be at least min_buy_in."})
        return attrs


class BuyInSerializer(serializers.Serializer[Any]):
    buy_in = StrictIntegerField(min_value=1, max_value=MAX_BUY_IN)


class JoinSerializer(BuyInSerializer):
    code = StrictCharField(max_length=32)


# A `Seat` (a table's players); the game view's `waiting_players` are the same fields (selectors.table_players).
class TablePlayerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(source="player.username")
    seat = serializers.IntegerField(source="number")
    chips = serializers.IntegerField()  # Seat.chips: 0 at a practice seat, which has no stack account
    status = serializers.ChoiceField(choices=SeatStatus.choices)


class TableTournamentSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["quick", "single", "multi"])
    target_score = serializers.IntegerField(
        allow_null=True, help_text="A single-table tournament's target score (null otherwise)."
    )
    rounds = serializers.IntegerField(allow_null=True, help_text="A quick game's rounds (null otherwise).")
    my_table = serializers.IntegerField(
        allow_null=True,
        help_text="The caller's table in this tournament now (null: seated at none of its tables). A player the "
        "tournament moved (balancing, a broken table) reads here where they play on.",
    )


# A `selectors.TableRow`: the table, its seated players, what the caller may see of it.
class TableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="table.pk")
    game = PresetField(source="table.game")
    options = serializers.DictField(source="table.options")
    seats = serializers.IntegerField(source="table.seats")
    pcr = serializers.IntegerField(source="table.pcr")
    min_buy_in = serializers.IntegerField(source="table.min_buy_in")
    max_buy_in = serializers.IntegerField(source="table.max_buy_in")
    multiplier = serializers.IntegerField(source="table.multiplier")
    private = serializers.BooleanField(source="table.private")
    practice = serializers.BooleanField(
        source="table.practice",
        help_text="A practice table: its player against server bots, no chips, never listed.",
    )
    code = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(
        source="table.status",
        choices=TableStatus.choices,
        help_text="open, closed, or error (a round could not be dealt; see error)",
    )
    error = serializers.CharField(allow_null=True, help_text="why the table is in error (null otherwise)")
    players = TablePlayerSerializer(source="seats", many=True)
    current_game = serializers.IntegerField(allow_null=True)
    tournament = TableTournamentSerializer(
        allow_null=True,
        help_text="The tournament this table plays for (its chips are tournament chips or points; nobody sits "
        "down, tops up or leaves), or null at a ring table.",
    )


class TurnSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    claims = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="In a claim window: who may still call."
    )


class GamePlayerSerializer(serializers.Serializer[Any]):
    """A player of the round (with `hand_count` and `scores`), or a seated player between rounds."""

    username = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True)
    hand_count = serializers.IntegerField(required=False)
    scores = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="This player's settlement score in each finished round of the table, oldest first.",
    )
    chips = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(
        choices=SeatStatus.choices, help_text="The seat's status; `left` for a player who has left."
    )
    time_bank = serializers.FloatField(
        allow_null=True,
        required=False,
        help_text="Seconds of time bank left this round; the turn player's as it was when the turn began.",
    )
    connected = serializers.BooleanField(
        help_text='Whether the player is connected to the game now (docs/rules.md "Presence and reconnection").'
    )


class TableMeldSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    owner = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    placers = serializers.ListField(child=serializers.CharField(), help_text="Who placed each card.")


class ClaimsSerializer(serializers.Serializer[Any]):
    discarder = serializers.CharField()
    acted = serializers.ListField(child=serializers.CharField())
    pending = serializers.ListField(child=serializers.CharField())


class Rummy500ObligationsSerializer(serializers.Serializer[Any]):
    must_use = serializers.CharField(
        allow_null=True, help_text="A card drawn from the pile that must be placed."
    )
    not_discardable = serializers.ListField(child=serializers.CharField())
    jokers_to_meld = serializers.IntegerField()


class BoardObligationsSerializer(serializers.Serializer[Any]):
    not_discardable = serializers.ListField(child=serializers.CharField())
    must_close = serializers.BooleanField(help_text="The turn took the pile's card facing an empty stock.")


class BoardDealSerializer(serializers.Serializer[Any]):
    qualified = serializers.ListField(child=serializers.CharField(), help_text="Who may refuse the deal.")
    pending = serializers.ListField(child=serializers.CharField(), help_text="Who has still to answer.")


class BonusSerializer(serializers.Serializer[Any]):
    """A bonus of the round, settled on its own after the scores (docs/rules.md "Board Rummy": the trump
    bonus)."""

    player = serializers.CharField()
    points = serializers.IntegerField(help_text="Paid by each opponent.")
    reason = serializers.ChoiceField(choices=["trump"])


class ResultSerializer(serializers.Serializer[Any]):
    scores = serializers.DictField(child=serializers.IntegerField())
    game_points = serializers.DictField(child=serializers.IntegerField())
    bonuses = BonusSerializer(many=True)
    details = RoundDetailsField()
    redeal = serializers.BooleanField()
    deck = serializers.ListField(child=serializers.CharField())
    salt = serializers.CharField()


class EngineViewSerializer(serializers.Serializer[Any]):
    """The engine's fields of a round's view (`engine.player_view`) beyond the envelope each answer declares:
    the game view's (`GameSerializer`) and a replay step's (`ReplayViewSerializer`)."""

    hand = serializers.ListField(child=serializers.CharField(), required=False)
    game = PresetField(required=False, help_text="The round's preset.")
    dealer = serializers.CharField(required=False)
    may_act = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Who may move now."
    )
    claims = ClaimsSerializer(allow_null=True, required=False, help_text="The open claim window, if any.")
    stall = serializers.IntegerField(required=False, help_text="Turns in a row without progress.")
    obligations = PolymorphicProxySerializer(
        component_name="Obligations",
        serializers=[Rummy500ObligationsSerializer, BoardObligationsSerializer],
        resource_type_field_name=None,
        required=False,
        help_text="What the player in turn still owes this turn (their own view only), by family.",
    )
    # Board Rummy's own (docs/rules.md "Board Rummy").
    trump = serializers.CharField(required=False, help_text="Board Rummy: the trump tile.")
    thrown_jokers = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Board Rummy: jokers thrown, by player."
    )
    trump_bonus = serializers.BooleanField(
        required=False, help_text="Board Rummy: whether the caller holds the trump's twin."
    )
    deal = BoardDealSerializer(required=False, help_text="Board Rummy, in phase `deal`.")
    # The Basic family's own (docs/rules.md "Basic Rummy family").
    restocks = serializers.IntegerField(
        required=False, help_text="Basic family: times the discard pile became the stock this round."
    )
    restocks_left = serializers.IntegerField(
        required=False, help_text="Basic family: restocks left before a block (0 with `restock: none`)."
    )
    opened = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="Basic family: the players who have placed a card this round (in seat order).",
    )
    result = ResultSerializer(required=False, help_text="Once the round is over.")
    scores = serializers.DictField(
        child=serializers.IntegerField(), required=False, help_text="Once the round is over."
    )


class GameSerializer(EngineViewSerializer):
    """The game view (selectors.game_view); `hand` only for the caller's own hand, `legal_moves` only when the
    caller may act. The fields from `game` to `waiting_players` are there once a round has been dealt."""

    id = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.ChoiceField(choices=GameStatus.choices)
    version = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(choices=PHASES, allow_null=True)
    turn = TurnSerializer(allow_null=True)
    players = GamePlayerSerializer(many=True)
    discard_pile = serializers.ListField(child=serializers.CharField())
    stock_count = serializers.IntegerField(allow_null=True)
    melds = TableMeldSerializer(many=True)
    legal_moves = serializers.ListField(child=MoveField(), required=False)
    deal_commitment = serializers.CharField(allow_null=True)
    next_round_at = serializers.DateTimeField(allow_null=True, help_text="When the next round is dealt.")
    waiting_players = TablePlayerSerializer(
        many=True, required=False, help_text="Seated players waiting for the next deal."
    )


def _literal(value: str) -> serializers.Field[Any, Any, Any, Any]:
    shown = extend_schema_field({"type": "string", "enum": [value]})(
        type("Literal", (serializers.CharField,), {})
    )
    field: serializers.Field[Any, Any, Any, Any] = shown()
    return field


class TransferRowSerializer(serializers.Serializer[Any]):
    # `from` is a keyword: declared through the fields mapping below.
    to = serializers.CharField()
    amount = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=ROW_KINDS, help_text="`bonus`: the round's bonus settlement.")

    def get_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = dict(super().get_fields())
        fields["from"] = serializers.CharField()
        return fields


class EventSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    at = serializers.DateTimeField()


class RoundStartedEventSerializer(EventSerializer):
    kind = _literal("round_started")
    round = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    dealer = serializers.CharField()
    deal_commitment = serializers.CharField()


class MoveEventSerializer(EventSerializer):
    """A move: `move` is its public part (a stock draw names no card)."""

    kind = _literal("move")
    round = serializers.IntegerField()
    player = serializers.CharField()
    # No help_text: a described `$ref` becomes `allOf: [$ref]`, where generated clients lose the union.
    move = MoveField()
    server_played = serializers.BooleanField()
    phase = serializers.ChoiceField(choices=PHASES)
    card = serializers.CharField(required=False, help_text="The card drawn from the stock (the drawer only).")
    cards = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="The cards drawn (the drawer only)."
    )


class ClaimsClosedEventSerializer(EventSerializer):
    kind = _literal("claims_closed")
    round = serializers.IntegerField()
    phase = serializers.ChoiceField(choices=PHASES)


class RoundOverEventSerializer(EventSerializer):
    kind = _literal("round_over")
    round = serializers.IntegerField()
    scores = serializers.DictField(child=serializers.IntegerField())
    game_points = serializers.DictField(child=serializers.IntegerField())
    bonuses = BonusSerializer(many=True)
    redeal = serializers.BooleanField()
    transfers = TransferRowSerializer(many=True, help_text="The settlement transfers.")
    deal_commitment = serializers.CharField()
    deck = serializers.ListField(child=serializers.CharField())
    salt = serializers.CharField()


class TableClosedEventSerializer(EventSerializer):
    kind = _literal("table_closed")
    table = serializers.IntegerField()


class ReconnectWaitEventSerializer(EventSerializer):
    """The reconnection allowance (docs/rules.md "Presence and reconnection"): the server waits for
    disconnected `players` until `deadline` before playing for them."""

    kind = _literal("reconnect_wait")
    round = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    deadline = serializers.DateTimeField()


class TableErrorEventSerializer(EventSerializer):
    kind = _literal("table_error")
    table = serializers.IntegerField()
    error = serializers.CharField()


def event_schema(*, many: bool = False) -> PolymorphicProxySerializer:
    """An event as play.event_for renders it, by kind."""
    return PolymorphicProxySerializer(
        component_name="Event",
        serializers={
            "round_started": RoundStartedEventSerializer,
            "move": MoveEventSerializer,
            "claims_closed": ClaimsClosedEventSerializer,
            "reconnect_wait": ReconnectWaitEventSerializer,
            "round_over": RoundOverEventSerializer,
            "table_closed": TableClosedEventSerializer,
            "table_error": TableErrorEventSerializer,
        },
        resource_type_field_name="kind",
        many=many,
    )


class MoveResultSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    events = event_schema(many=True)


class EventsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    events = event_schema(many=True)
    next_after = serializers.IntegerField()


class LoggedMoveSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    player = serializers.CharField()
    move = MoveField()
    server_played = serializers.BooleanField()


class RoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    dealer = serializers.CharField(allow_null=True)
    scores = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    game_points = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    bonuses = BonusSerializer(many=True, allow_null=True)
    transfers = TransferRowSerializer(many=True)
    settled = serializers.BooleanField()
    deal_commitment = serializers.CharField()
    deck = serializers.ListField(child=serializers.CharField(), allow_null=True)
    salt = serializers.CharField(allow_null=True)
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    details = RoundDetailsField(required=False, allow_null=True, help_text="Once the round is over.")
    moves = LoggedMoveSerializer(many=True, required=False, help_text="The move log, once the round is over.")


# ------------------------------------------------------------------------------------ replays and my rounds


class ReplayTurnSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(allow_null=True, help_text="Who moves next (null once the round is over).")


class ReplayPlayerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    seat = serializers.IntegerField(help_text="The table's seat number, as in the game view.")
    hand_count = serializers.IntegerField()


class ReplayViewSerializer(EngineViewSerializer):
    """What the caller was shown after a step (the engine part of the game view): their own hand if they
    played the round, else the spectator's view; `result` and `scores` once the round is over."""

    version = serializers.IntegerField(help_text="The step's number in the round's own count (0: the deal).")
    round = serializers.IntegerField()
    game = PresetField(help_text="The round's preset.")
    phase = serializers.ChoiceField(choices=PHASES)
    dealer = serializers.CharField()
    turn = ReplayTurnSerializer()
    may_act = serializers.ListField(child=serializers.CharField(), help_text="Who may move now.")
    players = ReplayPlayerSerializer(many=True)
    discard_pile = serializers.ListField(child=serializers.CharField(), help_text="Bottom first.")
    stock_count = serializers.IntegerField()
    melds = TableMeldSerializer(many=True)
    deal_commitment = serializers.CharField()
    claims = ClaimsSerializer(allow_null=True, help_text="The open claim window, if any.")
    stall = serializers.IntegerField(help_text="Turns in a row without progress.")


class ReplayStepSerializer(serializers.Serializer[Any]):
    move = StepMoveField(
        help_text='The move (as the move log has it), `{"type": "close_claims"}` where the server closed '
        "a claim window at its deadline, or null for the deal."
    )
    player = serializers.CharField(allow_null=True, help_text="Who moved (null: the deal, a closed window).")
    view = ReplayViewSerializer()


class ReplayResultSerializer(serializers.Serializer[Any]):
    scores = serializers.DictField(child=serializers.IntegerField())
    game_points = serializers.DictField(child=serializers.IntegerField())
    bonuses = BonusSerializer(many=True)
    details = RoundDetailsField()
    redeal = serializers.BooleanField()
    transfers = TransferRowSerializer(many=True, help_text="The round's settlement.")


class ReplaySerializer(serializers.Serializer[Any]):
    """A finished round step by step (round_history.round_replay)."""

    round = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField(), help_text="In seat order.")
    dealer = serializers.CharField()
    steps = ReplayStepSerializer(many=True, help_text="The deal, then every move in order.")
    result = ReplayResultSerializer()
    practice = serializers.BooleanField(help_text="Played at a practice table (no chips at stake).")


class MyRoundSerializer(serializers.Serializer[Any]):
    """One of the caller's finished rounds (round_history.my_round_row)."""

    game = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    preset = PresetField(help_text="The table's game.")
    practice = serializers.BooleanField(help_text="Played at a practice table (against bots, no chips).")
    players = serializers.ListField(child=serializers.CharField(), help_text="In seat order.")
    score = serializers.IntegerField(allow_null=True, help_text="The caller's score in the round.")
    ended_at = serializers.DateTimeField()

"""Thin input validation and output shapes (the shapes are documented in the OpenAPI schema)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import serializers

from tournaments.engine import CardError, parse_card, parse_tile
from tournaments.errors import MalformedMove
from tournaments.services import table_settings
from tournaments.services.table_settings import MAX_BUY_IN


class TableCreateSerializer(serializers.Serializer[Any]):
    """The request's shape; what a table may be is checked by `table_settings.validate` (the admin's too),
    whose bounds these repeat for the schema and for field-by-field errors."""

    game = serializers.CharField(max_length=32)
    options = serializers.DictField(required=False, default=dict)
    seats = serializers.IntegerField(min_value=table_settings.MIN_SEATS, max_value=10)
    pcr = serializers.IntegerField(min_value=1, max_value=table_settings.MAX_PCR)
    min_buy_in = serializers.IntegerField(min_value=1, max_value=MAX_BUY_IN)
    max_buy_in = serializers.IntegerField(min_value=1, max_value=MAX_BUY_IN)
    multiplier = serializers.IntegerField(
        min_value=1, max_value=table_settings.MAX_MULTIPLIER, required=False, default=1
    )
    private = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["max_buy_in"] < attrs["min_buy_in"]:
            raise serializers.ValidationError({"max_buy_in": "Must be at least min_buy_in."})
        return attrs


class BuyInSerializer(serializers.Serializer[Any]):
    buy_in = serializers.IntegerField(min_value=1, max_value=MAX_BUY_IN)


class JoinSerializer(BuyInSerializer):
    code = serializers.CharField(max_length=32)


class TablePlayerSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    seat = serializers.IntegerField()
    chips = serializers.IntegerField()
    status = serializers.CharField()


class TableSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    game = serializers.CharField()
    options = serializers.DictField()
    seats = serializers.IntegerField()
    pcr = serializers.IntegerField()
    min_buy_in = serializers.IntegerField()
    max_buy_in = serializers.IntegerField()
    multiplier = serializers.IntegerField()
    private = serializers.BooleanField()
    code = serializers.CharField(allow_null=True)
    status = serializers.CharField(help_text="open, closed, or error (a round could not be dealt; see error)")
    error = serializers.CharField(allow_null=True, help_text="why the table is in error (null otherwise)")
    players = TablePlayerSerializer(many=True)
    current_game = serializers.IntegerField(allow_null=True)


class TurnSerializer(serializers.Serializer[Any]):
    player = serializers.CharField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)


class GameSerializer(serializers.Serializer[Any]):
    """The game view; `hand` only for the caller's own hand, `legal_moves` only when the caller may act."""

    id = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    round = serializers.IntegerField(allow_null=True)
    phase = serializers.CharField(allow_null=True)
    turn = TurnSerializer(allow_null=True)
    players = serializers.ListField(child=serializers.DictField())
    hand = serializers.ListField(child=serializers.CharField(), required=False)
    discard_pile = serializers.ListField(child=serializers.CharField())
    stock_count = serializers.IntegerField(allow_null=True)
    melds = serializers.ListField(child=serializers.DictField())
    legal_moves = serializers.ListField(child=serializers.DictField(), required=False)
    deal_commitment = serializers.CharField(allow_null=True)


class MoveInputSerializer(serializers.Serializer[Any]):
    """A move (its JSON in docs/rules.md, "A turn"; `legal_moves` lists the legal ones) plus `expected_version`."""

    type = serializers.CharField()
    expected_version = serializers.IntegerField(min_value=0)
    source = serializers.CharField(required=False)  # type: ignore[assignment]
    card = serializers.CharField(required=False)
    index = serializers.IntegerField(required=False)
    cards = serializers.ListField(child=serializers.CharField(), required=False)
    melds = serializers.ListField(child=serializers.ListField(child=serializers.CharField()), required=False)
    meld = serializers.JSONField(required=False)
    discard = serializers.CharField(required=False)
    groups = serializers.ListField(child=serializers.ListField(child=serializers.CharField()), required=False)


class EventSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    kind = serializers.CharField()
    at = serializers.DateTimeField()


class MoveResultSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)


class EventsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    events = EventSerializer(many=True)
    next_after = serializers.IntegerField()


class TransferRowSerializer(serializers.Serializer[Any]):
    # `from` is a keyword: declared through the fields mapping below.
    to = serializers.CharField()
    amount = serializers.IntegerField()
    kind = serializers.CharField()

    def get_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = dict(super().get_fields())
        fields["from"] = serializers.CharField()
        return fields


class RoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    players = serializers.ListField(child=serializers.CharField())
    dealer = serializers.CharField(allow_null=True)
    scores = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    game_points = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    bonuses = serializers.ListField(child=serializers.DictField(), allow_null=True)
    transfers = TransferRowSerializer(many=True)
    settled = serializers.BooleanField()
    deal_commitment = serializers.CharField()
    deck = serializers.ListField(child=serializers.CharField(), allow_null=True)
    salt = serializers.CharField(allow_null=True)
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


MOVE_TYPES = frozenset(
    {
        "draw",
        "meld",
        "lay_off",
        "swap_joker",
        "discard",
        "end_round",
        "call_rummy",
        "pass_claim",
        "refuse_deal",
        "keep_deal",
        "close",
    }
)
MOVE_FIELDS = frozenset({"source", "card", "index", "cards", "melds", "meld", "discard", "groups"})


def _is_str_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def parse_move(data: object) -> tuple[dict[str, Any], int]:
    """(move, expected_version) from a request body; anything not shaped like a move is MalformedMove (400)."""
    if not isinstance(data, dict):
        raise MalformedMove("The body must be a JSON object.")
    body = dict(data)
    version = body.pop("expected_version", None)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise MalformedMove("expected_version must be a non-negative integer.", code="move.expected_version")
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise MalformedMove(f"Unknown move type {kind!r}.", code="move.unknown_type")
    unknown = sorted(set(body) - MOVE_FIELDS - {"type"})
    if unknown:
        raise MalformedMove(f"Unknown move fields: {', '.join(unknown)}.", code="move.unknown_field")
    checks: dict[str, Callable[[Any], bool]] = {
        "source": lambda v: v in ("stock", "discard"),
        "card": lambda v: isinstance(v, str) and 0 < len(v) <= 8,
        "discard": lambda v: isinstance(v, str) and 0 < len(v) <= 8,
        "index": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 1000,
        "cards": lambda v: _is_str_list(v) and len(v) <= 200,
        "melds": lambda v: isinstance(v, list) and len(v) <= 50 and all(_is_str_list(m) for m in v),
        "groups": lambda v: isinstance(v, list) and len(v) <= 50 and all(_is_str_list(m) for m in v),
        "meld": lambda v: (
            (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, str) and len(v) <= 64)
        ),
    }
    for field, ok in checks.items():
        if field in body and not ok(body[field]):
            raise MalformedMove(
                f"Field {field} is malformed.", code="move.malformed_field", details={"field": field}
            )
    _check_card_codes(body)
    return body, version


def _check_card_codes(body: dict[str, Any]) -> None:
    """A card that is no card (nor a Board Rummy tile) is a malformed body (400), whatever the phase (which
    would make it a 422); the engine then refuses, also with a 400, a code of the other kind of game."""
    values: list[object] = [body[f] for f in ("card", "discard") if f in body]
    values += body.get("cards") or []
    for group in (body.get("melds") or []) + (body.get("groups") or []):
        values += group
    for value in values:
        try:
            parse_card(value, allow_placed_joker=True)
        except CardError as exc:
            try:
                parse_tile(value, allow_placed_joker=True)
            except CardError:
                raise MalformedMove(exc.message, code=exc.code, details={"card": value}) from None

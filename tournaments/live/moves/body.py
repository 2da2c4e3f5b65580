"""A move's body: read by the engine's one definition of the move types and their fields
(`engine.move_fields`), and described by the same definition in the OpenAPI schema, one component per move
type (`oneOf` with a discriminator on `type`). `parse_move` reads it once into the engine's typed move
(`engine.parse_move`), which the play services pass down to the engine.

The body is checked by hand against those definitions rather than by a DRF serializer: the move is the
hot path (docs/performance.md), and the conformance tests prove the schema says what this accepts.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from api.fields import MAX_INTEGER
from operations import metrics
from tournaments.engine import CardError, IllegalMove, Move, parse_card, parse_tile
from tournaments.engine import parse_move as parse_engine_move
from tournaments.engine.families import move_fields
from tournaments.engine.move_fields import FIELD_SCHEMAS, check_field
from tournaments.errors import MalformedMove, PlayCode

# Every move type any family plays, with its fields; the fields any of them carries.
MOVE_TYPES: dict[str, frozenset[str]] = move_fields()
MOVE_FIELDS: frozenset[str] = frozenset().union(*MOVE_TYPES.values()) - {"type"}


def parse_move(data: object) -> tuple[Move, int]:
    """(move, expected_version) from a request body; anything not shaped like a move is MalformedMove (400),
    the field named in its details. A field the move's type does not take is `move.malformed` (the engine's).
    A refusal here is counted with the service's (`operations.metrics`, by code)."""
    try:
        return _parse_move(data)
    except MalformedMove as exc:
        metrics.move_refused(code=str(exc.code))
        raise


def _parse_move(data: object) -> tuple[Move, int]:
    if not isinstance(data, dict):
        raise MalformedMove("The body must be a JSON object.")
    body = dict(data)
    version = body.pop("expected_version", None)
    # Past 2^64 - 1 the JSON parser reads an integer as a float: out of range too, not "not an integer".
    huge = isinstance(version, float) and version.is_integer() and version > MAX_INTEGER
    if huge or (isinstance(version, int) and not isinstance(version, bool) and version > MAX_INTEGER):
        raise MalformedMove(
            "expected_version must be at most %(limit)s.",
            params={"limit": MAX_INTEGER},
            code=PlayCode.MOVE_EXPECTED_VERSION,
        )
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise MalformedMove(
            "expected_version must be a non-negative integer.", code=PlayCode.MOVE_EXPECTED_VERSION
        )
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise MalformedMove(
            "Unknown move type %(type)s.", params={"type": repr(kind)}, code=PlayCode.MOVE_UNKNOWN_TYPE
        )
    unknown = sorted(set(body) - MOVE_FIELDS - {"type"})
    if unknown:
        raise MalformedMove(
            "Unknown move fields: %(fields)s.",
            params={"fields": ", ".join(unknown)},
            code=PlayCode.MOVE_UNKNOWN_FIELD,
        )
    for field, schema in FIELD_SCHEMAS.items():
        if field in body and not check_field(schema, body[field]):
            raise MalformedMove(
                "Field %(field)s is malformed.",
                params={"field": field},
                code=PlayCode.MOVE_MALFORMED_FIELD,
                details={"field": field},
            )
    # A card that is no card (nor a Board Rummy tile) is a malformed body (400), whatever the phase (which
    # would make it a 422); the engine then refuses, also with a 400, a code of the other kind of game. (Checked
    # here, not in a helper of this module: the engine is called in one stretch, docs/architecture.md "Two
    # requests, file by file".)
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
    try:
        move = parse_engine_move(body)
    except IllegalMove as exc:
        raise MalformedMove(exc.message, code=exc.code, details=exc.details) from None
    return move, version


# --- the schema ------------------------------------------------------------------------------------


def _schema_field(schema: dict[str, Any], **kwargs: Any) -> serializers.Field[Any, Any, Any, Any]:
    """A field the schema shows as `schema` (these serializers only describe; they validate nothing)."""
    shown = extend_schema_field(schema)(type("SchemaField", (serializers.JSONField,), {}))
    field: serializers.Field[Any, Any, Any, Any] = shown(**kwargs)
    return field


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _move_serializer(
    mtype: str, fields: frozenset[str], *, request: bool
) -> type[serializers.Serializer[Any]]:
    attrs: dict[str, Any] = {"type": _schema_field({"type": "string", "enum": [mtype]})}
    for name in sorted(fields - {"type"}):
        attrs[name] = _schema_field(dict(FIELD_SCHEMAS[name]), required=False)
    if request:
        attrs["expected_version"] = serializers.IntegerField(
            min_value=0,
            max_value=MAX_INTEGER,
            help_text="The game's version the move was chosen at (409 when it has moved on).",
        )
    # One name for both: the request's component gets drf-spectacular's `Request` suffix (`DrawMoveRequest`).
    return type(f"{_camel(mtype)}MoveSerializer", (serializers.Serializer,), attrs)


_Shape = serializers.Serializer[Any] | type[serializers.Serializer[Any]]
_MOVES: dict[str, _Shape] = {
    mtype: _move_serializer(mtype, f, request=False) for mtype, f in MOVE_TYPES.items()
}
_REQUESTS: dict[str, _Shape] = {
    mtype: _move_serializer(mtype, f, request=True) for mtype, f in MOVE_TYPES.items()
}


def move_schema(*, request: bool = False, many: bool = False, **kwargs: Any) -> PolymorphicProxySerializer:
    """What `POST /games/{id}/moves/` takes (`request`), or a move as the game view's `legal_moves` and a
    round's move log show it; `kwargs` are the field's (`required`, `help_text`)."""
    return PolymorphicProxySerializer(
        component_name="Move",  # the request's: `MoveRequest`
        serializers=_REQUESTS if request else _MOVES,
        resource_type_field_name="type",
        many=many,
        **kwargs,
    )


@extend_schema_field(move_schema())
class MoveField(serializers.JSONField):
    """A move as the engine wrote it, passed through; shown as the `Move` union."""


# A replay's step (docs/api.md "Replays"): a move, or the server closing a claim window at its deadline.
_CLOSE_CLAIMS = type(
    "CloseClaimsStepSerializer",
    (serializers.Serializer,),
    {"type": _schema_field({"type": "string", "enum": ["close_claims"]})},
)


def step_move_schema(**kwargs: Any) -> PolymorphicProxySerializer:
    """A replay step's `move`: a move as the move log shows it, or `{"type": "close_claims"}`."""
    return PolymorphicProxySerializer(
        component_name="StepMove",
        serializers={**_MOVES, "close_claims": _CLOSE_CLAIMS},
        resource_type_field_name="type",
        **kwargs,
    )


@extend_schema_field(step_move_schema(allow_null=True))
class StepMoveField(serializers.JSONField):
    """A replay step's move, passed through; null for the deal."""

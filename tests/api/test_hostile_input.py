"""Hostile input in every parameter and body field of every operation of the published schema (issue 19,
defect 4): NUL characters, lone surrogates, 1,000-deep nesting and huge strings, from anonymous and
authenticated callers, never get a 5xx, every refusal is the JSON envelope, and a refusal moves no chip.

The operations, their path, query and header parameters and their body fields are read from `/api/schema/`, so
an endpoint added later is covered without a change here. Each value is sent as a real client would have to
send it: percent-encoded UTF-8 in the URI (a lone surrogate as the bytes `%ED%A0%80`), Latin-1 in a header (as a
WSGI server hands it over), `\\u` escapes in JSON. A sweep sends every kind of value to every field once per
caller; a hypothesis property then draws operations, fields, callers and generated text at random.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from accounts import services
from ledger.models import Transfer
from tests.api.conftest import World
from tournaments.tournament import setup
from tournaments.tournament.models import Tournament

pytestmark = pytest.mark.django_db

DEPTH = 1000
CALLERS = [None, "ann", "admin"]
# Marks where a raw JSON value (deep nesting, which `json.dumps` would recurse through) goes into a body.
RAW = "\x01raw\x01"


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    path: tuple[str, ...]
    query: tuple[str, ...]
    headers: tuple[str, ...]
    body: dict[str, Any] | None  # a minimal body in the schema's shape, None without one
    fields: tuple[str, ...]


@dataclass(frozen=True)
class Point:
    """Where a hostile value goes: `path`, `query`, `header` or `body` (the field `name`; `*` the whole body)."""

    where: str
    name: str


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    if "allOf" in schema and len(schema["allOf"]) == 1:
        return _resolve(spec, schema["allOf"][0])
    return schema


def _sample(spec: dict[str, Any], schema: dict[str, Any]) -> Any:
    """A plain value of the schema's type: the body around the hostile field is well-formed."""
    schema = _resolve(spec, schema)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "integer":
        return max(int(schema.get("minimum", 1)), 1)
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        return {}
    return "x"


def _body(spec: dict[str, Any], schema: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """(a minimal body, every field any of its alternatives names)."""
    schema = _resolve(spec, schema)
    alternatives = [_resolve(spec, one) for one in schema.get("oneOf", [schema])]
    first = alternatives[0]
    body = {
        name: _sample(spec, field)
        for name, field in first.get("properties", {}).items()
        if name in first.get("required", [])
    }
    fields = sorted({name for alternative in alternatives for name in alternative.get("properties", {})})
    return body, tuple(fields)


# Operations whose success ends what the others act on (the table, the tournament): swept last.
_ENDING = ("/close/", "/cancel/", "/leave/", "/start/", "/logout/", "/logout-all/")


def operations(spec: dict[str, Any]) -> list[Operation]:
    found: list[Operation] = []
    for template, item in spec["paths"].items():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            parameters = operation.get("parameters", [])

            def named(where: str, parameters: list[dict[str, Any]] = parameters) -> tuple[str, ...]:
                return tuple(p["name"] for p in parameters if p["in"] == where)

            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            body, fields = _body(spec, content["schema"]) if content else (None, ())
            found.append(
                Operation(method, template, named("path"), named("query"), named("header"), body, fields)
            )
    return sorted(found, key=lambda operation: operation.template.endswith(_ENDING))


def points(operation: Operation) -> list[Point]:
    found = [Point("path", name) for name in operation.path]
    found += [Point("query", name) for name in (*operation.query, "format", "unlisted")]
    found += [Point("header", name) for name in (*operation.headers, "Authorization", "Accept")]
    if operation.body is not None:
        found += [Point("body", name) for name in (*operation.fields, "*")]
    return found


# Hostile values by kind; `deep` is JSON text in a body and the same text elsewhere.
HOSTILE: dict[str, str] = {
    "nul": "a\x00b",
    "surrogate": "x\ud800y",
    "deep": "[" * DEPTH + "]" * DEPTH,
    "long": "y" * 5_000,
    "huge": "z" * 60_000,
}
# Past the body's limit: only a body field tells it from `huge` (a URI or a header is refused at 60 000 already).
OVER_THE_BODY_LIMIT = "w" * 70_000


def _percent(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def _latin1(text: str) -> str:
    """What a WSGI server puts in `environ` for a header sent as these UTF-8 bytes."""
    return text.encode("utf-8", "surrogatepass").decode("latin-1")


class Sender:
    """Sends one hostile request; authenticated callers send a real token (the `Authorization` header is then
    a point like any other)."""

    def __init__(self, world: World, tournament: Tournament) -> None:
        self.world = world
        self.ids = {
            "game_id": str(world.game.pk),
            "number": "1",
            "table_id": str(world.table.pk),
            "tournament_id": str(tournament.pk),
            "deal_id": "1",
            "id": world.url("{account}"),
            "username": world.users["admin"].get_username(),
            "room": f"table:{world.table.pk}",
        }
        self.transfer = world.url("{transfer}")
        # One client for every request: a new one loads the middleware again (WhiteNoise scans the static files).
        self.client = APIClient()
        self.tokens = {
            name: services.create_token(user=world.users[name])[1] for name in CALLERS if name is not None
        }

    def send(self, operation: Operation, point: Point, value: str, caller: str | None) -> Any:
        ids = dict(self.ids)
        if "/transfers/" in operation.template:
            ids["id"] = self.transfer
        if point.where == "path":
            ids[point.name] = _percent(value)
        url = operation.template.format(**ids)
        if point.where == "query":
            url += f"?{_percent(point.name)}={_percent(value)}"
        meta: dict[str, Any] = {}
        if caller is not None:
            meta["HTTP_AUTHORIZATION"] = f"Token {self.tokens[caller]}"
        if "Idempotency-Key" in operation.headers:
            meta["HTTP_IDEMPOTENCY_KEY"] = uuid.uuid4().hex
        if point.where == "header":
            meta["HTTP_" + point.name.upper().replace("-", "_")] = _latin1(value)
        client = self.client
        cache.clear()  # throttles and lockouts would answer 429 before the code under test
        if operation.body is None:
            return client.generic(operation.method.upper(), url, **meta)
        return client.generic(
            operation.method.upper(),
            url,
            data=_body_text(operation, point, value),  # ASCII: json.dumps escapes the rest
            content_type="application/json",
            **meta,
        )


def _body_text(operation: Operation, point: Point, value: str) -> str:
    assert operation.body is not None
    deep = value.startswith("[[[")
    if point.where != "body":
        return json.dumps(operation.body)
    if point.name == "*":
        return value if deep else json.dumps(value)
    body = {**operation.body, point.name: RAW if deep else value}
    # ensure_ascii: NUL and surrogates travel as \u escapes, as any JSON encoder writes them.
    return json.dumps(body).replace(json.dumps(RAW), value)


def assert_answer(
    response: Any, operation: Operation, point: Point, caller: str | None, transfers_before: int
) -> None:
    where = f"{operation.method.upper()} {operation.template} {point} as {caller or 'anonymous'}"
    assert response.status_code < 500, (where, response.status_code, response.content[:500])
    if response.status_code >= 400:
        assert response["Content-Type"] == "application/json", where
        body = response.json()
        assert set(body) == {"error"}, where
        assert set(body["error"]) == {"code", "message", "details"}, where
        assert isinstance(body["error"]["code"], str) and isinstance(body["error"]["details"], dict), where
        # A refusal changes nothing (a hostile value in a field no view reads may well succeed).
        assert Transfer.objects.count() == transfers_before, where


@pytest.fixture
def sender(world: World) -> Iterator[Sender]:
    tournament = setup.create_tournament(
        user=world.users["admin"],
        settings={
            "name": "Hostile",
            "kind": "single",
            "game": "rummy500",
            "options": {},
            "buy_in": 10,
            "max_entrants": 3,
            "target_score": 1,
        },
    )
    yield Sender(world, tournament)


def test_the_schema_lists_every_kind_of_point(published_spec: dict[str, Any]) -> None:
    """The sweep below covers what it claims: every operation, with path, query, header and body points."""
    found = operations(published_spec)
    assert len(found) >= 40
    kinds = {point.where for operation in found for point in points(operation)}
    assert kinds == {"path", "query", "header", "body"}
    moves = next(o for o in found if o.template.endswith("/moves/"))
    assert {"type", "cards", "melds", "expected_version"} <= set(moves.fields)


def test_every_field_of_every_operation_refuses_hostile_values_in_the_envelope(
    sender: Sender, published_spec: dict[str, Any]
) -> None:
    """Every kind of value in every point of every operation, anonymous or as the admin (whom no permission
    stops short of the view's own checks), the two taking turns so that each point meets both."""
    sent = 0
    for operation in operations(published_spec):
        for point in points(operation):
            for value in _values_for(point):
                caller = "admin" if sent % 2 else None
                before = Transfer.objects.count()
                response = sender.send(operation, point, value, caller)
                assert_answer(response, operation, point, caller, before)
                sent += 1
    assert sent > 1000


def _values_for(point: Point) -> list[str]:
    """In a URI a 5,000-character value is refused as the 60,000 one is (414); a header takes it (up to 8192),
    and only a body tells 60,000 from past the body's limit."""
    if point.where in ("path", "query"):
        return [HOSTILE[kind] for kind in ("nul", "surrogate", "deep", "huge")]
    if point.where == "header":
        return list(HOSTILE.values())
    return [*HOSTILE.values(), OVER_THE_BODY_LIMIT]


_BAD_CHARACTERS = st.sampled_from(["\x00", "\ud800", "\udbff", "\udc00", "\udfff"])
_TEXT = st.text(st.characters(codec="utf-8"), max_size=20)
_VALUES = st.one_of(
    # Generated text around a NUL or a lone surrogate.
    st.builds(lambda head, bad, tail: head + bad + tail, _TEXT, _BAD_CHARACTERS, _TEXT),
    st.builds(
        lambda depth: "[" * depth + "]" * depth,
        st.sampled_from([33, 1000, 1500, 3000]) | st.integers(30, 3000),
    ),
    st.builds(lambda size, char: char * size, st.integers(4000, 70_000), st.sampled_from(["a", "é", "\x00"])),
    st.sampled_from([*HOSTILE.values(), OVER_THE_BODY_LIMIT]),
)


@settings(max_examples=250, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_hostile_input_never_gets_a_server_error(
    sender: Sender, published_spec: dict[str, Any], data: st.DataObject
) -> None:
    # Where first, each as likely as the others: query parameters outnumber body fields three to one.
    where = data.draw(st.sampled_from(["path", "query", "header", "body"]), label="where")
    having = [o for o in operations(published_spec) if any(p.where == where for p in points(o))]
    operation = data.draw(st.sampled_from(having), label="operation")
    point = data.draw(st.sampled_from([p for p in points(operation) if p.where == where]), label="point")
    value = data.draw(_VALUES, label="value")
    # Mostly authenticated: an anonymous caller's body is not read where authentication is required.
    caller = data.draw(st.sampled_from([None, "ann", "admin", "admin"]), label="caller")
    before = Transfer.objects.count()
    assert_answer(sender.send(operation, point, value, caller), operation, point, caller, before)

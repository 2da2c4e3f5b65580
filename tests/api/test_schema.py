"""The OpenAPI schema says what the API answers: paginated envelopes for lists, and for every operation the
error statuses it can answer, each with the error envelope. Real answers are checked against it too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from jsonschema.exceptions import ValidationError
from openapi_schema_validator import validate

from accounts.errors import AccountCode
from api.errors import ApiCode
from chat.errors import ChatCode
from ledger.errors import LedgerCode
from ratings.errors import RatingsCode
from responsible.breaks.errors import BreakCode
from responsible.limits.errors import LimitsCode
from responsible.sessions.errors import SessionCode
from responsible.verification.errors import VerificationCode
from tests.api.conformance import Answer, Recording, ResponseValidator, check_answers, problems, summary
from tests.api.conftest import World
from tests.engine.test_architecture import _raised_codes
from tournaments.engine.families import move_fields
from tournaments.engine.move_fields import FIELD_SCHEMAS
from tournaments.engine.rules import PRESETS
from tournaments.engine.state import PHASES
from tournaments.errors import PlayCode

ENVELOPE = "#/components/schemas/ErrorEnvelope"
ERROR_STATUSES = {"400", "401", "403", "404", "406", "409", "413", "414", "415", "422", "429", "431", "503"}
# Every operation can be refused its URI or headers as too long (api.boundary); one with a body, its size.
LIMITS = {414, 431}

# The list operations and their pagination (docs/api.md "Lists": cursor pagination for statements and
# transfers).
LIST_OPERATIONS = {
    "/api/v1/tables/": "page",
    "/api/v1/games/{game_id}/rounds/": "page",
    "/api/v1/me/rounds/": "page",
    "/api/v1/ledger/accounts/": "page",
    "/api/v1/ledger/reconciliation/runs/": "page",
    "/api/v1/ledger/transfers/": "cursor",
    "/api/v1/ledger/accounts/{id}/statement/": "cursor",
    "/api/v1/wallet/transfers/": "cursor",
    "/api/v1/tournaments/": "page",
    "/api/v1/tournaments/{tournament_id}/standings/": "page",
    "/api/v1/tournaments/{tournament_id}/tables/": "page",
    "/api/v1/integrity/flags/": "page",
    "/api/v1/players/{username}/history/": "page",
    "/api/v1/me/notifications/": "page",
    "/api/v1/me/limits/history/": "page",
    "/api/v1/responsible/limits/": "page",
    "/api/v1/responsible/breaks/": "page",
    "/api/v1/responsible/verifications/": "page",
    # numbered pages without a count (docs/api.md, "Players and leaderboards")
    "/api/v1/leaderboards/": "uncounted page",
}

# What each operation can answer besides success, read off its view and services (docs/api.md). Every
# operation: 400 (an unknown `format`, besides its own parameters and body), 406 (an `Accept` no renderer
# serves) and 503. A body: 415. Unsafe
# methods: 403 (CSRF, for a session).
EXPECTED_ERRORS = {
    ("post", "/api/v1/auth/register/"): {400, 406, 415, 429, 503},
    ("post", "/api/v1/auth/token/"): {400, 406, 415, 429, 503},
    ("post", "/api/v1/auth/logout/"): {400, 406, 401, 503},
    ("post", "/api/v1/auth/logout-all/"): {400, 406, 401, 503},
    ("get", "/api/v1/wallet/"): {400, 406, 401, 503},
    ("get", "/api/v1/wallet/transfers/"): {400, 406, 401, 503},
    # 403: CSRF for a session, and grant.guest (a guest of the demo gets no chips)
    ("post", "/api/v1/wallet/top-up/"): {400, 406, 401, 403, 409, 422, 429, 503},
    # anyone (a token read only: no session, no CSRF); throttled per address
    ("post", "/api/v1/demo/"): {400, 406, 401, 429, 503},
    ("post", "/api/v1/ledger/adjustments/"): {400, 406, 401, 403, 409, 415, 422, 503},
    ("get", "/api/v1/ledger/accounts/"): {400, 406, 401, 403, 404, 503},
    ("get", "/api/v1/ledger/accounts/{id}/statement/"): {400, 406, 401, 403, 404, 503},
    ("get", "/api/v1/ledger/transfers/"): {400, 406, 401, 403, 503},
    ("get", "/api/v1/ledger/transfers/{id}/"): {400, 406, 401, 403, 404, 503},
    ("get", "/api/v1/ledger/reconciliation/"): {400, 406, 401, 403, 503},
    ("get", "/api/v1/ledger/reconciliation/runs/"): {400, 406, 401, 403, 404, 503},
    ("post", "/api/v1/ledger/reconciliation/runs/"): {400, 406, 401, 403, 429, 503},
    ("get", "/api/v1/tables/"): {400, 406, 401, 404, 503},
    ("post", "/api/v1/tables/"): {400, 406, 401, 403, 409, 415, 422, 429, 503},
    ("get", "/api/v1/tables/{table_id}/"): {400, 406, 401, 404, 503},
    ("post", "/api/v1/tables/{table_id}/sit/"): {400, 406, 401, 403, 404, 409, 415, 422, 503},
    ("post", "/api/v1/tables/join/"): {400, 406, 401, 403, 404, 409, 415, 422, 429, 503},
    ("post", "/api/v1/tables/{table_id}/leave/"): {400, 406, 401, 403, 404, 409, 503},
    ("post", "/api/v1/tables/{table_id}/close/"): {400, 406, 401, 403, 404, 503},
    ("get", "/api/v1/games/{game_id}/"): {400, 406, 401, 404, 503},
    ("post", "/api/v1/games/{game_id}/moves/"): {400, 406, 401, 403, 404, 409, 415, 422, 503},
    ("get", "/api/v1/games/{game_id}/events/"): {400, 406, 401, 403, 404, 503},
    ("get", "/api/v1/games/{game_id}/rounds/"): {400, 406, 401, 403, 404, 503},
    ("get", "/api/v1/games/{game_id}/rounds/{number}/replay/"): {400, 406, 401, 404, 409, 429, 503},
    ("get", "/api/v1/me/rounds/"): {400, 406, 401, 404, 503},
    ("get", "/api/v1/tournaments/"): {400, 401, 404, 406, 503},
    ("post", "/api/v1/tournaments/"): {400, 406, 401, 403, 415, 503},
    ("get", "/api/v1/tournaments/{tournament_id}/"): {400, 401, 404, 406, 503},
    ("post", "/api/v1/tournaments/{tournament_id}/register/"): {400, 406, 401, 403, 404, 409, 415, 422, 503},
    ("post", "/api/v1/tournaments/{tournament_id}/unregister/"): {400, 406, 401, 403, 404, 409, 503},
    ("post", "/api/v1/tournaments/{tournament_id}/back/"): {400, 406, 401, 403, 404, 409, 503},
    ("get", "/api/v1/tournaments/{tournament_id}/standings/"): {400, 401, 404, 406, 503},
    ("get", "/api/v1/tournaments/{tournament_id}/tables/"): {400, 401, 404, 406, 503},
    ("get", "/api/v1/tournaments/{tournament_id}/tables/{table_id}/"): {400, 401, 404, 406, 503},
    ("get", "/api/v1/tournaments/{tournament_id}/events/"): {400, 401, 404, 406, 503},
    ("post", "/api/v1/tournaments/{tournament_id}/start/"): {400, 406, 401, 403, 404, 409, 503},
    ("post", "/api/v1/tournaments/{tournament_id}/pause/"): {400, 406, 401, 403, 404, 409, 503},
    ("post", "/api/v1/tournaments/{tournament_id}/resume/"): {400, 406, 401, 403, 404, 409, 503},
    ("post", "/api/v1/tournaments/{tournament_id}/cancel/"): {400, 406, 401, 403, 404, 409, 503},
    ("get", "/api/v1/tournaments/{tournament_id}/payouts/"): {400, 406, 401, 403, 404, 503},
}

BODILESS_REFUSALS = {
    ("post", "/api/v1/tournaments/{tournament_id}/register/"),
    # docs/api.md "Ledger (staff)": the daily top-up of a wallet at or above the floor, grant.above_floor.
    ("post", "/api/v1/wallet/top-up/"),
}


@pytest.fixture
def spec(published_spec: dict[str, Any]) -> dict[str, Any]:
    return published_spec


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield method, path, operation


def resolved(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def success_schema(operation: dict[str, Any]) -> dict[str, Any]:
    code = min(c for c in operation["responses"] if c.startswith("2"))
    schema: dict[str, Any] = operation["responses"][code]["content"]["application/json"]["schema"]
    return schema


def test_the_error_envelope_is_a_component(spec: dict[str, Any]) -> None:
    envelope = resolved(spec, {"$ref": ENVELOPE})
    assert envelope["required"] == ["error"]
    error = resolved(spec, envelope["properties"]["error"])
    assert set(error["required"]) == {"code", "message", "details"}
    details = resolved(spec, error["properties"]["details"])
    assert details["type"] == "object" and details["additionalProperties"] is True
    assert details["properties"]["parameter"]["type"] == "string"
    assert details["properties"]["version"]["type"] == "integer"


def test_error_codes_are_a_closed_set(spec: dict[str, Any]) -> None:
    """`Error.code` is the enum of every code the API answers: each app's codes and the engine's rule codes."""
    error = resolved(spec, {"$ref": ENVELOPE})["properties"]["error"]
    code = resolved(spec, resolved(spec, error)["properties"]["code"])
    everything = {
        m.value
        for enum in (
            ApiCode,
            AccountCode,
            LedgerCode,
            PlayCode,
            RatingsCode,
            ChatCode,
            LimitsCode,
            SessionCode,
            BreakCode,
            VerificationCode,
        )
        for m in enum
    }
    everything |= _raised_codes()
    assert set(code["enum"]) == everything
    assert {"game.stale_version", "turn.not_your_turn", "idempotency.key_invalid"} <= set(code["enum"])


def test_every_operation_lists_its_errors_with_the_envelope(spec: dict[str, Any]) -> None:
    for method, path, operation in operations(spec):
        responses = operation["responses"]
        errors = {code for code in responses if not code.startswith(("2", "3"))}  # 304: a conditional GET
        where = f"{method.upper()} {path}"
        assert {"400", "406", "414", "431", "503"} <= errors, where
        assert errors <= ERROR_STATUSES, where
        # A token read (a security scheme named), even where it is optional (`{}` beside it: the tournament
        # reads, which say whether the caller is registered), is refused when bad: 401. Register and token
        # read none (`security: []`).
        reads_a_token = any(requirement for requirement in operation["security"])
        assert ("401" in errors) is reads_a_token, where
        if "requestBody" not in operation:
            # Nothing in the wrong media type without a body, nor refused by the rules, but for an entry
            # the wallet cannot pay (docs/api.md "Tournaments": register answers 422
            # ledger.insufficient_funds) and a top-up above the floor.
            assert "415" not in errors and "413" not in errors, where
            assert ("422" in errors) is ((method, path) in BODILESS_REFUSALS), where
        for code in errors:
            assert responses[code]["description"], (where, code)
            assert responses[code]["content"] == {"application/json": {"schema": {"$ref": ENVELOPE}}}, (
                where,
                code,
            )


def test_error_statuses_of_each_operation(spec: dict[str, Any]) -> None:
    listed = {
        (method, path): {int(code) for code in operation["responses"] if not code.startswith(("2", "3"))}
        for method, path, operation in operations(spec)
    }
    for key, expected in EXPECTED_ERRORS.items():
        assert listed.get(key) == expected | LIMITS | ({413} if 415 in expected else set()), key


def test_no_success_is_a_bare_array(spec: dict[str, Any]) -> None:
    """docs/api.md "Lists": lists are paginated; an array at the top of an answer is a list described
    unpaginated."""
    for method, path, operation in operations(spec):
        for code, response in operation["responses"].items():
            if code.startswith("2") and "content" in response:  # a 204 has none
                schema = response["content"]["application/json"]["schema"]
                assert resolved(spec, schema).get("type") != "array", f"{method} {path}"


def test_list_operations_answer_the_paginated_envelope(spec: dict[str, Any]) -> None:
    paginated = set()
    for method, path, operation in operations(spec):
        names = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        if method == "get" and names & {"page", "cursor"}:
            paginated.add(path)
    assert paginated == set(LIST_OPERATIONS)
    for path, kind in LIST_OPERATIONS.items():
        operation = spec["paths"][path]["get"]
        names = {p["name"] for p in operation["parameters"] if p["in"] == "query"}
        assert {"page_size", kind.split()[-1]} <= names, path
        envelope = resolved(spec, success_schema(operation))
        properties = envelope["properties"]
        assert {"next", "previous", "results"} <= set(properties), path
        assert properties["next"]["nullable"] is True and properties["previous"]["nullable"] is True, path
        assert properties["results"]["type"] == "array", path
        assert ("count" in properties) is (kind == "page"), path
    for path in ("/api/v1/tables/", "/api/v1/games/{game_id}/rounds/"):
        envelope = resolved(spec, success_schema(spec["paths"][path]["get"]))
        assert envelope["required"] == ["count", "results"]


def test_csv_answers_are_described_as_text(spec: dict[str, Any]) -> None:
    for method, path, operation in operations(spec):
        for code, response in operation["responses"].items():
            if "text/csv" in response.get("content", {}):
                assert code.startswith("2"), (method, path, code)
                assert response["content"]["text/csv"]["schema"]["type"] == "string"


# --- real answers against the schema (a start of the conformance test) ------------------------------


def assert_conforms(spec: dict[str, Any], method: str, url: str, response: Any) -> None:
    found = problems(spec, method, url, response.status_code, response.json())
    assert not found, found


def test_the_check_refuses_what_the_schema_does_not_say(spec: dict[str, Any]) -> None:
    """Not vacuous: a bare list (what the tables list was once documented as), an error without its
    `details`, a null where none is allowed do not pass."""
    tables = {
        "allOf": [success_schema(spec["paths"]["/api/v1/tables/"]["get"])],
        "components": spec["components"],
    }
    with pytest.raises(ValidationError):
        validate([], tables, cls=ResponseValidator)
    envelope = {"allOf": [{"$ref": ENVELOPE}], "components": spec["components"]}
    with pytest.raises(ValidationError):
        validate({"error": {"code": "not_found", "message": "Not found."}}, envelope, cls=ResponseValidator)
    with pytest.raises(ValidationError):
        validate({"error": None}, envelope, cls=ResponseValidator)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "user, template",
    [
        ("ann", "/api/v1/tables/"),
        ("ann", "/api/v1/games/{game}/rounds/"),
        ("staff", "/api/v1/ledger/accounts/"),
        ("staff", "/api/v1/ledger/reconciliation/runs/"),
        ("staff", "/api/v1/ledger/transfers/"),
        ("staff", "/api/v1/ledger/accounts/{account}/statement/"),
        ("ann", "/api/v1/tables/{table}/"),
        ("ann", "/api/v1/games/{game}/"),
        ("ann", "/api/v1/wallet/"),
        ("ann", "/api/v1/me/rounds/"),
        ("staff", "/api/v1/ledger/transfers/{transfer}/"),
        ("staff", "/api/v1/ledger/reconciliation/"),
    ],
)
def test_answers_conform(spec: dict[str, Any], world: World, user: str, template: str) -> None:
    url = world.url(template)
    response = world.client(user).get(url)
    assert response.status_code == 200, response.content
    assert_conforms(spec, "get", url, response)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "user, method, template, body, status",
    [
        (None, "get", "/api/v1/tables/", None, 401),
        ("ann", "get", "/api/v1/ledger/accounts/?format=csv", None, 403),
        ("ann", "get", "/api/v1/tables/999999999/", None, 404),
        ("ann", "get", "/api/v1/tables/?page=99", None, 404),
        ("ann", "get", "/api/v1/tables/?page_size=0", None, 400),
        ("staff", "get", "/api/v1/ledger/transfers/?cursor=junk", None, 400),
        ("ann", "get", "/api/v1/wallet/?format=csv", None, 400),
        ("cid", "get", "/api/v1/games/{game}/events/", None, 403),
        ("cid", "get", "/api/v1/games/{game}/rounds/", None, 403),
        ("ann", "get", "/api/v1/games/{game}/rounds/1/replay/", None, 404),
        ("cid", "post", "/api/v1/tables/{table}/leave/", None, 409),
        ("cid", "post", "/api/v1/tables/{table}/sit/", {"buy_in": 5}, 422),
        ("cid", "post", "/api/v1/tables/{table}/sit/", {"buy_in": "many"}, 400),
        ("ann", "post", "/api/v1/tables/{table}/close/", None, 403),
        ("ann", "post", "/api/v1/games/{game}/moves/", {"type": "draw", "expected_version": 0}, 409),
        ("ann", "post", "/api/v1/tables/join/", {"code": "AAAAAAAA", "buy_in": 100}, 404),
    ],
)
def test_errors_conform(
    spec: dict[str, Any],
    world: World,
    user: str | None,
    method: str,
    template: str,
    body: dict[str, Any] | None,
    status: int,
) -> None:
    url = world.url(template)
    client = world.client(user)
    response = client.get(url) if method == "get" else client.post(url, body, format="json")
    assert response.status_code == status, response.content
    assert_conforms(spec, method, url, response)


# --- the conformance check itself ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_conformance_check_names_the_operation_and_the_json_path(
    spec: dict[str, Any], world: World
) -> None:
    """Not vacuous: a field the schema does not list, a missing one, a wrong type deep in a list and a status
    the operation does not list are each reported with the operation and where."""
    table = world.client("ann").get(world.url("/api/v1/tables/")).json()
    assert problems(spec, "get", "/api/v1/tables/", 200, table) == []
    extra = {**table, "results": [{**table["results"][0], "secret": 1}]}
    assert problems(spec, "get", "/api/v1/tables/", 200, extra) == [
        "GET /api/v1/tables/ 200: $.results[0]: Additional properties are not allowed ('secret' was unexpected)"
    ]
    player = table["results"][0]["players"][0]
    wrong = {**table, "results": [{**table["results"][0], "players": [{**player, "chips": "many"}]}]}
    assert problems(spec, "get", "/api/v1/tables/", 200, wrong) == [
        "GET /api/v1/tables/ 200: $.results[0].players[0].chips: 'many' is not of type 'integer'"
    ]
    wallet = world.client("ann").get("/api/v1/wallet/").json()
    missing = {k: v for k, v in wallet.items() if k != "balance"}
    assert problems(spec, "get", "/api/v1/wallet/", 200, missing) == [
        "GET /api/v1/wallet/ 200: $: 'balance' is a required property"
    ]
    assert problems(spec, "get", "/api/v1/wallet/", 418, {}) == [
        "GET /api/v1/wallet/ 418: status not listed (documented: 200, 400, 401, 406, 414, 431, 503)"
    ]
    game = f"/api/v1/games/{world.game.pk}/"
    view = world.client("ann").get(game).json()
    bad_move = {**view, "legal_moves": [{"type": "draw", "source": "sky"}]}
    assert problems(spec, "get", game, 200, bad_move) == [
        "GET /api/v1/games/{game_id}/ 200: $.legal_moves[0].source: 'sky' is not one of ['stock', 'discard']"
    ]


WALLET_WITHOUT_CURRENCY = (
    b'{"balance": 1, "top_up": {"state": "off", "available": false, "floor": null, "next_at": null}}'
)


def test_the_fixture_reports_every_answer_once_per_problem(spec: dict[str, Any]) -> None:
    answers = [
        Answer("get", "/api/v1/wallet/", 200, "application/json", WALLET_WITHOUT_CURRENCY),
        Answer("get", "/api/v1/wallet/", 200, "application/json", WALLET_WITHOUT_CURRENCY),
        Answer("get", "/api/v1/nowhere/", 404, "application/json", b"{}"),  # no operation: not checked
        Answer("get", "/admin/", 200, "text/html", b""),
    ]
    checked, found = check_answers(spec, answers)
    assert checked == 2 and len(found) == 2
    assert summary(found).endswith("(x2)")


def test_moves_are_described_per_type_from_the_engine(spec: dict[str, Any]) -> None:
    """`Move` (a legal move, a logged move) and `MoveRequest` (the body of a move) are a `oneOf` with a
    discriminator on `type`: one component per move type of every family, each with that type's fields, as
    the engine defines them (engine.move_fields)."""
    schemas = spec["components"]["schemas"]
    body = spec["paths"]["/api/v1/games/{game_id}/moves/"]["post"]["requestBody"]["content"]
    assert body["application/json"]["schema"] == {"$ref": "#/components/schemas/MoveRequest"}
    for name, extra in (("Move", set()), ("MoveRequest", {"expected_version"})):
        union = schemas[name]
        mapping = union["discriminator"]["mapping"]
        assert union["discriminator"]["propertyName"] == "type"
        assert list(mapping) == list(move_fields()), name
        assert [ref["$ref"] for ref in union["oneOf"]] == list(mapping.values())
        for mtype, ref in mapping.items():
            component = resolved(spec, {"$ref": ref})
            assert set(component["properties"]) == set(move_fields()[mtype]) | extra, mtype
            assert resolved(spec, component["properties"]["type"])["enum"] == [mtype]
            assert set(component["required"]) == {"type"} | extra
            for field, schema in component["properties"].items():
                if field in FIELD_SCHEMAS and "enum" not in FIELD_SCHEMAS[field]:
                    assert schema == FIELD_SCHEMAS[field], (mtype, field)


def test_events_are_described_by_kind(spec: dict[str, Any]) -> None:
    event = spec["components"]["schemas"]["Event"]
    assert event["discriminator"]["propertyName"] == "kind"
    assert set(event["discriminator"]["mapping"]) == {
        "round_started",
        "move",
        "claims_closed",
        "round_over",
        "table_closed",
        "table_error",
        "reconnect_wait",
    }
    for kind, ref in event["discriminator"]["mapping"].items():
        component = resolved(spec, {"$ref": ref})
        assert resolved(spec, component["properties"]["kind"])["enum"] == [kind]


@pytest.mark.django_db(transaction=True)
def test_a_live_servers_answers_are_checked_too(live_server: Any, answers_conform: Recording) -> None:
    """The end-to-end tests talk HTTP to a live server in this process: its answers are recorded as the
    test client's are."""
    response = requests.get(f"{live_server.url}/api/v1/tables/", timeout=10)
    assert response.status_code == 401
    assert [(a.method, a.path, a.status) for a in answers_conform.answers] == [
        ("get", "/api/v1/tables/", 401)
    ]


# --- what a generated client reads: closed sets, required bodies, headers, parameters -------------------


def test_register_and_token_read_no_credentials(spec: dict[str, Any]) -> None:
    for path in ("/api/v1/auth/register/", "/api/v1/auth/token/"):
        assert spec["paths"][path]["post"]["security"] == [], path


def test_every_operation_id_has_the_prefix(spec: dict[str, Any]) -> None:
    ids = [operation["operationId"] for _m, _p, operation in operations(spec)]
    assert len(ids) == len(set(ids))
    assert [i for i in ids if not i.startswith("v1_")] == []


def query_parameters(spec: dict[str, Any], method: str, path: str) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in spec["paths"][path][method].get("parameters", []) if p["in"] == "query"}


def test_every_optional_query_parameter_may_be_empty(spec: dict[str, Any]) -> None:
    """An empty value is no value (`?game=`, `?page=`): the schema says so, and the fuzz test holds the
    server to it."""
    for method, path, _operation in operations(spec):
        for name, parameter in query_parameters(spec, method, path).items():
            assert parameter.get("required") or parameter["allowEmptyValue"] is True, (method, path, name)


def test_pagination_parameters_say_their_bounds(spec: dict[str, Any]) -> None:
    for path, kind in LIST_OPERATIONS.items():
        parameters = query_parameters(spec, "get", path)
        size = parameters["page_size"]["schema"]
        assert size["type"] == "integer" and size["minimum"] == 1 and size["maximum"] in (500, 1000), path
        if kind == "page":
            assert parameters["page"]["schema"] == {
                "oneOf": [
                    {"type": "integer", "minimum": 1, "maximum": 10**18 - 1},
                    {"type": "string", "enum": ["last"]},
                ]
            }, path


def test_event_versions_and_waits_have_bounds(spec: dict[str, Any]) -> None:
    for path in ("/api/v1/games/{game_id}/events/", "/api/v1/tournaments/{tournament_id}/events/"):
        parameters = query_parameters(spec, "get", path)
        assert parameters["after"]["schema"] == {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}
        assert parameters["wait"]["schema"] == {"type": "number", "minimum": 0}
        # The busy answer (too many waiting) tells the client when to call again.
        headers = spec["paths"][path]["get"]["responses"]["200"]["headers"]
        assert headers["Retry-After"]["schema"] == {"type": "integer"}, path


def test_cursor_lists_declare_their_link_header(spec: dict[str, Any]) -> None:
    for path in (
        "/api/v1/ledger/transfers/",
        "/api/v1/ledger/accounts/{id}/statement/",
        "/api/v1/wallet/transfers/",
    ):
        assert "Link" in spec["paths"][path]["get"]["responses"]["200"]["headers"], path


def test_idempotency_keys_say_their_limits(spec: dict[str, Any]) -> None:
    def key(path: str) -> dict[str, Any]:
        header: dict[str, Any] = next(
            p for p in spec["paths"][path]["post"]["parameters"] if p["name"] == "Idempotency-Key"
        )
        return header

    adjustment = key("/api/v1/ledger/adjustments/")
    assert adjustment["required"] is True
    assert adjustment["schema"] == {"type": "string", "minLength": 1, "maxLength": 200, "pattern": r"\S"}
    for path in ("/api/v1/tables/{table_id}/sit/", "/api/v1/games/{game_id}/moves/"):
        assert key(path)["schema"] == {"type": "string", "maxLength": 255}, path


def test_the_move_body_is_required_and_closed(spec: dict[str, Any]) -> None:
    body = spec["paths"]["/api/v1/games/{game_id}/moves/"]["post"]["requestBody"]
    assert body["required"] is True
    mapping = spec["components"]["schemas"]["MoveRequest"]["discriminator"]["mapping"]
    for ref in mapping.values():
        assert resolved(spec, {"$ref": ref})["additionalProperties"] is False, ref


def test_a_move_event_names_its_move_by_reference(spec: dict[str, Any]) -> None:
    """A `$ref` beside a description is `allOf: [$ref]`, where TypeScript generators lose the union."""
    move = spec["components"]["schemas"]["MoveEvent"]["properties"]["move"]
    assert move == {"$ref": "#/components/schemas/Move"}


CLOSED_SETS = {
    ("Table", "status"): "TableStatusEnum",
    ("Table", "game"): "GameEnum",
    ("TablePlayer", "status"): "SeatStatusEnum",
    ("Game", "status"): "GameStatusEnum",
    ("Game", "phase"): "PhaseEnum",
    ("Game", "game"): "GameEnum",
    ("MoveEvent", "phase"): "PhaseEnum",
    ("Tournament", "status"): "TournamentStatusEnum",
    ("Tournament", "game"): "GameEnum",
    ("Tournament", "entry_status"): "EntryStatusEnum",
    ("Tournament", "stage"): "TournamentStageEnum",
    ("Standing", "status"): "EntryStatusEnum",
    ("TournamentTable", "status"): "TableStatusEnum",
    ("TransferRow", "kind"): "SettlementRowKindEnum",
    ("Transfer", "kind"): "TransferKindEnum",
    ("WalletEntry", "kind"): "TransferKindEnum",
    ("CancelTransfer", "kind"): "TransferKindEnum",
    ("TableCreateRequest", "game"): "GameEnum",
    ("TournamentCreateRequest", "game"): "GameEnum",
}


def test_closed_sets_are_enums(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for (component, field), enum in CLOSED_SETS.items():
        schema = schemas[component]["properties"][field]
        refs = [schema.get("$ref")] + [
            s.get("$ref") for s in schema.get("allOf", []) + schema.get("oneOf", [])
        ]
        assert f"#/components/schemas/{enum}" in refs, (component, field, schema)
    assert schemas["GameEnum"]["enum"] == list(PRESETS)
    assert schemas["PhaseEnum"]["enum"] == list(PHASES)


def test_bonuses_and_settlement_transfers_are_typed(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for component in ("Result", "RoundOverEvent", "Round"):
        assert schemas[component]["properties"]["bonuses"]["items"] == {"$ref": "#/components/schemas/Bonus"}
    assert set(schemas["Bonus"]["required"]) == {"player", "points", "reason"}
    assert schemas["RoundOverEvent"]["properties"]["transfers"]["items"] == {
        "$ref": "#/components/schemas/TransferRow"
    }


def test_tournament_event_data_names_its_keys(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    data = schemas["TournamentEvent"]["properties"]["data"]
    refs = [data.get("$ref")] + [s.get("$ref") for s in data.get("allOf", [])]
    assert "#/components/schemas/TournamentEventData" in refs
    typed = schemas["TournamentEventData"]
    assert typed["additionalProperties"] is True
    assert {"starts_at", "entrants", "level", "players", "winners", "prizes", "shares", "reason"} <= set(
        typed["properties"]
    )
    assert typed["properties"]["players"]["items"] == {"$ref": "#/components/schemas/BustedPlayer"}

"""The OpenAPI schema's view of errors and lists (drf-spectacular's AutoSchema, extended).

Every operation lists the error statuses it can answer, each with the one error envelope
`{"error": {"code", "message", "details"}}` (api.exceptions). Most are read off the view itself:

- 400 for every operation: any request may carry a `?format=` no renderer offers (api.negotiation),
  besides a bad body or query parameter; 406 for every operation, an `Accept` header no renderer serves;
  414 and 431 for every operation, a URI or headers over the limits (api.boundary);
- 401 when the view reads a token (a bad one is refused where a token is optional too); 403 when its
  permissions check more than that, or for an unsafe method a session may send (CSRF);
- 404 for a path with an id in it, and for a page-number list (a page past the end);
- 413 and 415 for an operation with a request body (at most 64 KiB of JSON);
- 429 when the view is throttled; 503 for every operation (the database was briefly unreachable).

What only the services know (a 404 without an id in the path, a 403 from a rule, every 409 and 422) the view
declares with `@raises(...)`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular import openapi
from drf_spectacular.utils import Direction
from rest_framework import permissions, serializers
from rest_framework.authentication import SessionAuthentication

from api.fields import MAX_INTEGER
from api.pagination import PageNumberPagination

_Decorated = TypeVar("_Decorated", bound=Callable[..., Any])

_RAISES_ATTRIBUTE = "_api_error_statuses"

ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "Malformed body, an invalid field or query parameter, or an unknown `format` "
    "(`request.malformed`, `request.invalid`, `request.invalid_parameter`, ...).",
    401: "No or bad credentials (`auth.not_authenticated`, `auth.failed`).",
    403: "Authenticated but not allowed (`auth.forbidden`, or the rule's own code).",
    404: "No such object, or one the caller may not see (`not_found`, `table.not_found`, ...).",
    406: "No renderer serves the `Accept` header (`request.not_acceptable`).",
    409: "Conflicts with the current state (e.g. `game.stale_version`, `idempotency.key_reused`).",
    413: "The body is larger than the API takes (`request.too_large`).",
    414: "The path and query string are longer than the API takes (`request.uri_too_long`).",
    415: "The body is not JSON (`request.unsupported_media_type`).",
    422: "Well-formed but refused by the rules (a rule's code, `ledger.insufficient_funds`, ...).",
    429: "Throttled (`throttled`); retry after `Retry-After` seconds.",
    431: "A header, or all of them, longer than the API takes (`request.headers_too_large`).",
    503: "The database was briefly unavailable; nothing was done (`service.unavailable`).",
}
# An operation without a body can only be refused its parameters.
_BAD_PARAMETERS = (
    "An invalid query parameter or an unknown `format` (`request.invalid_parameter`, `request.invalid`)."
)
_RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait before retrying."}
}
_HEADERS: dict[int, dict[str, Any]] = {
    401: {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "`Token`."}},
    429: _RETRY_AFTER,
    503: _RETRY_AFTER,
}


class ErrorDetailsSerializer(serializers.Serializer[Any]):
    """Machine-readable context: the keys below where the code uses them, and a code's own (`docs/api.md`)."""

    field = serializers.CharField(
        required=False, help_text="The one field refused (`table.invalid_options`, ...)."
    )
    parameter = serializers.CharField(required=False, help_text="`request.invalid_parameter`: which one.")
    header = serializers.CharField(required=False, help_text="A header refused at the boundary: which one.")
    version = serializers.IntegerField(
        required=False, help_text="`game.stale_version`: the game's version now."
    )
    card = serializers.CharField(required=False, help_text="`card.unknown`, `card.malformed`: the code sent.")
    retry_after_seconds = serializers.IntegerField(
        required=False, help_text="`throttled`, `auth.locked_out`: as `Retry-After`."
    )
    error = serializers.CharField(required=False, help_text="`table.error`: why the table is in error.")

    def get_fields(self) -> dict[str, Any]:
        # `fields` would shadow the serializer's own `fields`: declared through the mapping.
        declared: dict[str, Any] = dict(super().get_fields())
        declared["fields"] = serializers.DictField(
            required=False,
            help_text="`request.invalid`: each invalid field's messages (a list; an object for a nested field).",
        )
        return declared


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="Stable and dotted, e.g. `game.stale_version` (docs/api.md).")
    message = serializers.CharField(help_text="For humans; may change.")
    details = ErrorDetailsSerializer()


class ErrorEnvelopeSerializer(serializers.Serializer[Any]):
    error = ErrorSerializer()


def raises(*statuses: int) -> Callable[[_Decorated], _Decorated]:
    """Error statuses a view method (or every method of a view class) answers beyond those read off the view."""
    unknown = set(statuses) - set(ERROR_DESCRIPTIONS)
    if unknown:
        raise ValueError(f"no description for status {sorted(unknown)}")

    def decorate(target: _Decorated) -> _Decorated:
        setattr(target, _RAISES_ATTRIBUTE, frozenset(statuses))
        return target

    return decorate


class AutoSchema(openapi.AutoSchema):
    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        for parameter in operation.get("parameters", []):
            # The API reads an empty query value as no value (`?game=`, `?page=`): OpenAPI says so with
            # `allowEmptyValue`, so that a client (or a fuzzer) knows the empty value is accepted.
            if parameter["in"] == "query" and not parameter.get("required"):
                parameter["allowEmptyValue"] = True
            # An id in the path is digits (Django's `int` converter) up to the database's largest integer;
            # past it there is no such object (404), as for any id that names none.
            schema = parameter.get("schema", {})
            if parameter["in"] == "path" and schema.get("type") == "integer":
                schema.setdefault("minimum", 0)
                schema.setdefault("maximum", MAX_INTEGER)
        if not self.view.get_authenticators():
            # No credentials read at all (register, token): no security requirement, not even an optional one.
            operation["security"] = []
        return operation

    def _get_response_bodies(self, direction: Direction = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code, response in responses.items():
            content = response.get("content", {})
            if "text/csv" in content and code.startswith("2"):
                content["text/csv"] = {"schema": {"type": "string", "description": "CSV with a header row."}}
        envelope = self.resolve_serializer(ErrorEnvelopeSerializer, "response").ref
        has_body = self._has_request_body()
        for status in sorted(self.error_statuses()):
            declared = responses.get(str(status), {})
            default = _BAD_PARAMETERS if status == 400 and not has_body else ERROR_DESCRIPTIONS[status]
            responses[str(status)] = {
                "description": declared.get("description") or default,
                **({"headers": _HEADERS[status]} if status in _HEADERS else {}),
                "content": {"application/json": {"schema": envelope}},
            }
        return responses

    def error_statuses(self) -> set[int]:
        statuses = {400, 406, 414, 431, 503}
        view_permissions = self.view.get_permissions()
        # A view that reads a token refuses a bad one (401 `auth.failed`), also where a token is optional.
        if self.view.get_authenticators():
            statuses.add(401)
        if any(type(p) not in (permissions.AllowAny, permissions.IsAuthenticated) for p in view_permissions):
            statuses.add(403)
        if self.method not in permissions.SAFE_METHODS and any(
            isinstance(a, SessionAuthentication) for a in self.view.get_authenticators()
        ):
            statuses.add(403)
        if "{" in self.path:
            statuses.add(404)
        paginator = self._get_paginator()  # type: ignore[no-untyped-call]
        if self._is_list_view() and isinstance(paginator, PageNumberPagination):
            statuses.add(404)
        if self._has_request_body():
            statuses |= {413, 415}
        if self.view.get_throttles():
            statuses.add(429)
        handler = getattr(self.view, self.method.lower(), None)
        for declared_on in (handler, self.view):
            statuses |= getattr(declared_on, _RAISES_ATTRIBUTE, frozenset())
        # Statuses documented by hand with `extend_schema(responses=...)` get the envelope too.
        declared = self.get_response_serializers()
        codes: list[Any] = list(declared) if isinstance(declared, dict) else []
        for code in codes:
            status = int(code[0] if isinstance(code, tuple) else code)
            if status in ERROR_DESCRIPTIONS:
                statuses.add(status)
        return statuses

    def _has_request_body(self) -> bool:
        return bool(self._get_request_body())  # type: ignore[no-untyped-call]


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """What drf-spectacular cannot say from the views: a move's body is closed and required (the engine's
    `move.unknown_field` refuses any other field; `tournaments.live.moves.body.parse_move`); an error's details
    and a tournament event's data are open (a code or kind adds its own context beside the keys named)."""
    schemas = result.get("components", {}).get("schemas", {})
    # Besides the keys it names, a code adds its own context (docs/api.md): the object stays open.
    for name in ("ErrorDetails", "TournamentEventData"):
        if name in schemas:
            schemas[name]["additionalProperties"] = True
    # Bodies that refuse a field they do not name: the limits' (responsible/limits/serializers.py) and the
    # notification settings', down to each kind's channels (notifications/serializers.py): closed.
    for name in (
        "LimitsUpdateRequest",
        "NotificationSettingsUpdateRequest",
        "SwitchesRequest",
        "ChannelSwitchesRequest",
    ):
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    move_request = schemas.get("MoveRequest", {})
    for ref in move_request.get("discriminator", {}).get("mapping", {}).values():
        schemas[ref.rsplit("/", 1)[-1]]["additionalProperties"] = False
    for item in result.get("paths", {}).values():
        for operation in item.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if body and body["content"].get("application/json", {}).get("schema") == {
                "$ref": "#/components/schemas/MoveRequest"
            }:
                body["required"] = True
    return result

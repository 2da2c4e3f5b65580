"""The API's own error codes (`ApiCode`), the one base of every service's refusal (`ServiceError`), and
Django-level error pages in the API's envelope (for paths outside DRF views).

The API's exception handler (api.exceptions) turns a `ServiceError` into the error envelope
`{"error": {"code", "message", "details"}}` with the error's HTTP status. Each app lists its codes in one enum
(`api.errors.ApiCode`, `accounts.errors.AccountCode`, `ledger.errors.LedgerCode`,
`tournaments.errors.PlayCode`; the engine's rule codes are `tournaments.engine`'s, in docs/rules.md); every
code is in docs/api.md's error table (a test checks both ways). Callers outside HTTP (tasks, the admin) catch
`ServiceError` or the app's subclass.

Messages are written in English and translated when the envelope is written, in the request's language
(docs/web.md, "Languages"): a service raises `ServiceError("English text.")`, or with values
`ServiceError("At most %(limit)s chips.", params={"limit": n})`; `deploy/catalogs.py extract` collects those
literals and the Italian catalog translates them. A message the catalog does not know (built at run time, or the
engine's) falls back to its code's sentence (`CODE_MESSAGES`, each app's codes described with
`describe_codes`), so every code answers in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_


class ApiCode(StrEnum):
    """Codes of the request itself, of authentication and of the service, whichever app answers them."""

    REQUEST_MALFORMED = "request.malformed"
    REQUEST_INVALID = "request.invalid"
    INVALID_PARAMETER = "request.invalid_parameter"
    # The request's own limits (api.boundary, docs/api.md "Limits of a request").
    BODY_TOO_LARGE = "request.too_large"
    URI_TOO_LONG = "request.uri_too_long"
    HEADERS_TOO_LARGE = "request.headers_too_large"
    METHOD_NOT_ALLOWED = "request.method_not_allowed"
    NOT_ACCEPTABLE = "request.not_acceptable"
    UNSUPPORTED_MEDIA_TYPE = "request.unsupported_media_type"
    NOT_AUTHENTICATED = "auth.not_authenticated"
    AUTH_FAILED = "auth.failed"
    FORBIDDEN = "auth.forbidden"
    NOT_FOUND = "not_found"
    THROTTLED = "throttled"
    IDEMPOTENCY_KEY_REQUIRED = "idempotency.key_required"
    IDEMPOTENCY_KEY_INVALID = "idempotency.key_invalid"
    IDEMPOTENCY_KEY_REUSED = "idempotency.key_reused"
    # The live socket's flood limits (live_room/flood.py, docs/api.md "Live socket").
    SOCKET_TOO_MANY = "socket.too_many"
    SOCKET_FLOOD = "socket.flood"
    SERVICE_UNAVAILABLE = "service.unavailable"
    SERVER_ERROR = "server.error"
    # An error no more specific code names (an unmapped DRF exception, a service error without a code).
    ERROR = "error"


# Each code's sentence in English (a msgid of the catalog): the message of a refusal the catalog cannot translate.
CODE_MESSAGES: dict[str, str] = {}


def describe_codes(messages: dict[str, str]) -> None:
    """Register codes' sentences (an app's errors module does it for its own codes, at import)."""
    CODE_MESSAGES.update({str(code): text for code, text in messages.items()})


def translate_message(template: str, params: dict[str, Any] | None = None, *, code: str | None = None) -> str:
    """`template` (English) in the active language, formatted with `params`; when the catalog has no
    translation for it and the code's sentence has one, the code's sentence; else the English as it is."""
    english = template % params if params else template
    translated = gettext(template)
    if translated != template:
        # Whole numbers as the language writes them (Italian 10.000); the English text stays as raised.
        local = {
            k: number_format(v, force_grouping=True) if isinstance(v, int) and not isinstance(v, bool) else v
            for k, v in (params or {}).items()
        }
        try:
            return translated % local if params else translated
        except (KeyError, TypeError, ValueError):
            return english
    sentence = CODE_MESSAGES.get(code or "")
    if sentence is not None and gettext(sentence) != sentence:
        return gettext(sentence)
    return english


class ServiceError(Exception):
    """A refusal: a stable dotted `code`, a `message` for humans, machine-readable `details`, the HTTP
    status it answers and, for a 429 or 503, the seconds after which to retry. `code` is a member of the
    app's enum, or an engine rule code passed on (a refused move)."""

    code: str = ApiCode.ERROR
    http_status: int = 400
    default_message: str = "The request was refused."
    retry_after: int | None = None

    def __init__(
        self,
        message: str | None = None,
        *,
        code: str | None = None,
        details: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        # `template` is the English text as raised (a msgid); `message` the same with its values, for logs.
        self.template = str(message or self.default_message)
        self.params: dict[str, Any] = params or {}
        self.message = self.template % self.params if self.params else self.template
        if code is not None:
            self.code = code
        self.details: dict[str, Any] = details or {}
        super().__init__(self.message)

    def localized_message(self) -> str:
        """The message in the active language (the request's: api.exceptions writes it)."""
        return translate_message(self.template, self.params, code=self.code)


describe_codes(
    {
        ApiCode.REQUEST_MALFORMED: N_("The request is malformed."),
        ApiCode.REQUEST_INVALID: N_("The request is invalid."),
        ApiCode.INVALID_PARAMETER: N_("A query parameter is invalid."),
        ApiCode.BODY_TOO_LARGE: N_("The request body is too large."),
        ApiCode.URI_TOO_LONG: N_("The address of the request is too long."),
        ApiCode.HEADERS_TOO_LARGE: N_("The request headers are too large."),
        ApiCode.METHOD_NOT_ALLOWED: N_("This method is not allowed here."),
        ApiCode.NOT_ACCEPTABLE: N_("The server cannot answer in the format asked for."),
        ApiCode.UNSUPPORTED_MEDIA_TYPE: N_("The request body's format is not supported."),
        ApiCode.NOT_AUTHENTICATED: N_("Sign in first."),
        ApiCode.AUTH_FAILED: N_("Sign-in failed."),
        ApiCode.FORBIDDEN: N_("You do not have permission to perform this action."),
        ApiCode.NOT_FOUND: N_("Not found."),
        ApiCode.THROTTLED: N_("Too many requests; try again in a moment."),
        ApiCode.IDEMPOTENCY_KEY_REQUIRED: N_(
            "This request needs an Idempotency-Key header (at most 200 characters)."
        ),
        ApiCode.IDEMPOTENCY_KEY_INVALID: N_("The Idempotency-Key header is at most 200 characters."),
        ApiCode.IDEMPOTENCY_KEY_REUSED: N_("This idempotency key was already used for a different request."),
        ApiCode.SOCKET_TOO_MANY: N_("Too many live connections are open; close one and try again."),
        ApiCode.SOCKET_FLOOD: N_("Too many messages on the live connection; slow down."),
        ApiCode.SERVICE_UNAVAILABLE: N_("The service is briefly unavailable; try again."),
        ApiCode.SERVER_ERROR: N_("Internal server error."),
        ApiCode.ERROR: N_("The request was refused."),
    }
)


def error_body(code: str, message: str, details: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The error envelope, written here and nowhere else: `{"error": {"code", "message", "details"}}`. Every
    answer of a refusal builds it through this function: DRF's exception handler (api.exceptions), the plain
    Django answers below and in api.boundary, api.machine, operations.views and security.middleware, and the
    refusals idempotency keeps (tournaments.live.moves.idempotency)."""
    return {"error": {"code": code, "message": message, "details": dict(details or {})}}


def error_json(
    code: str, message: str, status: int, params: dict[str, Any] | None = None, **details: Any
) -> JsonResponse:
    """The envelope as a plain Django response (paths DRF's views do not answer), `message` (English, a msgid
    with `%(name)s` placeholders filled from `params`) in the active language."""
    return JsonResponse(
        error_body(code, translate_message(message, params, code=code), details), status=status
    )


def _envelope(code: ApiCode, message: str, status: int) -> JsonResponse:
    return error_json(code, message, status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope(ApiCode.REQUEST_MALFORMED, N_("Bad request."), 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope(ApiCode.FORBIDDEN, N_("You do not have permission to perform this action."), 403)


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope(ApiCode.NOT_FOUND, N_("Not found."), 404)


def server_error(request: HttpRequest) -> JsonResponse:
    return _envelope(ApiCode.SERVER_ERROR, N_("Internal server error."), 500)

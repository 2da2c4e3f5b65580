"""The API's own error codes (`ApiCode`), the one base of every service's refusal (`ServiceError`), and
Django-level error pages in the API's envelope (for paths outside DRF views).

The API's exception handler (api.exceptions) turns a `ServiceError` into the error envelope
`{"error": {"code", "message", "details"}}` with the error's HTTP status. Each app lists its codes in one enum
(`api.errors.ApiCode`, `accounts.errors.AccountCode`, `ledger.errors.LedgerCode`,
`tournaments.errors.PlayCode`; the engine's rule codes are `tournaments.engine`'s, in docs/rules.md); every
code is in docs/api.md's error table (a test checks both ways). Callers outside HTTP (tasks, the admin) catch
`ServiceError` or the app's subclass.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.http import HttpRequest, JsonResponse


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
    SERVICE_UNAVAILABLE = "service.unavailable"
    SERVER_ERROR = "server.error"
    # An error no more specific code names (an unmapped DRF exception, a service error without a code).
    ERROR = "error"


class ServiceError(Exception):
    """A refusal: a stable dotted `code`, a `message` for humans, machine-readable `details`, the HTTP
    status it answers and, for a 429 or 503, the seconds after which to retry. `code` is a member of the
    app's enum, or an engine rule code passed on (a refused move)."""

    code: str = ApiCode.ERROR
    http_status: int = 400
    default_message: str = "The request was refused."
    retry_after: int | None = None

    def __init__(
        self, message: str | None = None, *, code: str | None = None, details: dict[str, Any] | None = None
    ) -> None:
        self.message = message or self.default_message
        if code is not None:
            self.code = code
        self.details: dict[str, Any] = details or {}
        super().__init__(self.message)


def _envelope(code: ApiCode, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "details": {}}}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope(ApiCode.REQUEST_MALFORMED, "Bad request.", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope(ApiCode.FORBIDDEN, "You do not have permission to perform this action.", 403)


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return _envelope(ApiCode.NOT_FOUND, "Not found.", 404)


def server_error(request: HttpRequest) -> JsonResponse:
    return _envelope(ApiCode.SERVER_ERROR, "Internal server error.", 500)

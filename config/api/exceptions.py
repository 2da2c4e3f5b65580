"""One error envelope for every API error: {"error": {"code", "message", "details"}}.

Service layers raise their own exceptions carrying `code`, `message`, `details` and `http_status`
(duck-typed, so the apps need not import anything from config); DRF's and Django's own errors are
mapped to stable codes here.
"""

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from config.api.params import InvalidParameter

logger = logging.getLogger(__name__)


_CODES: dict[type[exceptions.APIException], str] = {
    InvalidParameter: "request.invalid_parameter",
    exceptions.ParseError: "request.malformed",
    exceptions.ValidationError: "request.invalid",
    exceptions.NotAuthenticated: "auth.not_authenticated",
    exceptions.AuthenticationFailed: "auth.failed",
    exceptions.PermissionDenied: "auth.forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "request.method_not_allowed",
    exceptions.NotAcceptable: "request.not_acceptable",
    exceptions.UnsupportedMediaType: "request.unsupported_media_type",
    exceptions.Throttled: "throttled",
}


def error_response(
    *, code: str, message: str, details: dict[str, Any] | None = None, http_status: int = 400
) -> Response:
    return Response(
        {"error": {"code": code, "message": message, "details": details or {}}}, status=http_status
    )


def _code_for(exc: exceptions.APIException) -> str:
    for cls in type(exc).__mro__:
        if cls in _CODES:
            return _CODES[cls]
    return "error"


def _message_for(exc: exceptions.APIException) -> str:
    detail = exc.detail
    if isinstance(detail, str):
        return detail
    if isinstance(exc, exceptions.ValidationError):
        return "The request is invalid."
    return str(exc.default_detail)


def _details_for(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, InvalidParameter):
        return {"parameter": exc.parameter}
    detail = exc.detail
    if isinstance(detail, dict):
        return {"fields": detail}
    if isinstance(detail, list):
        return {"errors": detail}
    wait = getattr(exc, "wait", None)
    if isinstance(exc, exceptions.Throttled) and wait is not None:
        return {"retry_after_seconds": int(wait)}
    return {}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = _handle(exc, context)
    request = context.get("request")
    if response is not None and request is not None:
        # An error is the JSON envelope whatever the request asked for (`?format=csv`, `Accept: text/csv`):
        # clients read one shape, and a CSV body would turn the envelope into a misleading one-row export.
        # DRF renders with the request's choice (`finalize_response`), so the choice is replaced there.
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
    return response


def _handle(exc: Exception, context: dict[str, Any]) -> Response | None:
    service_code = getattr(exc, "code", None)
    service_status = getattr(exc, "http_status", None)
    if isinstance(service_code, str) and isinstance(service_status, int):
        answer = error_response(
            code=service_code,
            message=str(getattr(exc, "message", str(exc))),
            details=dict(getattr(exc, "details", None) or {}),
            http_status=service_status,
        )
        retry_after = getattr(exc, "retry_after", None)
        if isinstance(retry_after, int):
            answer["Retry-After"] = str(retry_after)
        return answer
    if isinstance(exc, OperationalError | InterfaceError):
        # The database went away or refused us (restart, failover, a connection that died idle, a lock or
        # deadlock timeout): nothing was done, and the same request may succeed in a moment. Django closes
        # the broken connection at the request's end (config/db/postgresql).
        logger.warning("database unavailable: %s", exc)
        set_rollback()
        unavailable = error_response(
            code="service.unavailable",
            message="The service is briefly unavailable; try again.",
            http_status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
        unavailable["Retry-After"] = "1"
        return unavailable
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    response.data = {
        "error": {"code": _code_for(exc), "message": _message_for(exc), "details": _details_for(exc)}
    }
    if response.status_code == status.HTTP_401_UNAUTHORIZED and "WWW-Authenticate" not in response:
        response["WWW-Authenticate"] = "Token"
    return response

"""One error envelope for every API error: {"error": {"code", "message", "details"}}.

Services raise a `api.errors.ServiceError` (its `code`, `message`, `details`, `http_status` and
`retry_after`), mapped here once; DRF's and Django's own errors are mapped to the API's codes (`ApiCode`).
"""

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse
from django.utils.log import log_response
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as N_
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from api.boundary import BodyTooLarge
from api.errors import ApiCode, ServiceError, error_body, translate_message
from api.params import InvalidParameter

_CODES: dict[type[exceptions.APIException], ApiCode] = {
    InvalidParameter: ApiCode.INVALID_PARAMETER,
    BodyTooLarge: ApiCode.BODY_TOO_LARGE,
    exceptions.ParseError: ApiCode.REQUEST_MALFORMED,
    exceptions.ValidationError: ApiCode.REQUEST_INVALID,
    exceptions.NotAuthenticated: ApiCode.NOT_AUTHENTICATED,
    exceptions.AuthenticationFailed: ApiCode.AUTH_FAILED,
    exceptions.PermissionDenied: ApiCode.FORBIDDEN,
    exceptions.NotFound: ApiCode.NOT_FOUND,
    exceptions.MethodNotAllowed: ApiCode.METHOD_NOT_ALLOWED,
    exceptions.NotAcceptable: ApiCode.NOT_ACCEPTABLE,
    exceptions.UnsupportedMediaType: ApiCode.UNSUPPORTED_MEDIA_TYPE,
    exceptions.Throttled: ApiCode.THROTTLED,
}


def error_response(
    *, code: str, message: str, details: dict[str, Any] | None = None, http_status: int = 400
) -> Response:
    """The envelope (api.errors.error_body) as DRF's response; `message` already in the request's language."""
    return Response(error_body(code, message, details), status=http_status)


def _code_for(exc: exceptions.APIException) -> ApiCode:
    for cls in type(exc).__mro__:
        if cls in _CODES:
            return _CODES[cls]
    return ApiCode.ERROR


def _message_for(exc: exceptions.APIException) -> str:
    """DRF's own messages are translated when raised (DRF ships Italian); ours are looked up in the catalog."""
    detail = exc.detail
    if isinstance(detail, str):
        return gettext(detail)
    if isinstance(exc, exceptions.ValidationError):
        return gettext("The request is invalid.")
    return gettext(str(exc.default_detail))


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


def log_handled_fault(response: HttpResponse, request: Any, *, reason: str) -> None:
    """Log a 5xx the service answers on purpose (retryable: nothing was done) at WARNING with its reason, on
    Django's request logger, which then does not log it again as an ERROR: alerts that count errors count
    only real failures (an unhandled exception's 500 stays an ERROR with its traceback)."""
    path = getattr(request, "path", "?")
    reason = " ".join(reason.split())[:300]
    log_response(
        "%s: %s (%s)",
        response.reason_phrase,
        path,
        reason,
        response=response,
        request=request,
        level="warning",
    )


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
    if isinstance(exc, ServiceError):
        answer = error_response(
            code=exc.code,
            message=exc.localized_message(),
            details=dict(exc.details),
            http_status=exc.http_status,
        )
        if exc.retry_after is not None:
            answer["Retry-After"] = str(exc.retry_after)
        if exc.http_status >= 500:
            log_handled_fault(answer, context.get("request"), reason=f"{exc.code}: {exc.message}")
        return answer
    if isinstance(exc, OperationalError | InterfaceError):
        # The database went away or refused us (restart, failover, a connection that died idle, a lock or
        # deadlock timeout): nothing was done, and the same request may succeed in a moment. Django closes
        # the broken connection at the request's end (CONN_HEALTH_CHECKS, config/settings/base.py).
        set_rollback()
        unavailable = error_response(
            code=ApiCode.SERVICE_UNAVAILABLE,
            message=translate_message(N_("The service is briefly unavailable; try again.")),
            http_status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
        unavailable["Retry-After"] = "1"
        log_handled_fault(
            unavailable, context.get("request"), reason=f"database unavailable: {type(exc).__name__}: {exc}"
        )
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
    response.data = error_body(_code_for(exc), _message_for(exc), _details_for(exc))
    if response.status_code == status.HTTP_401_UNAUTHORIZED and "WWW-Authenticate" not in response:
        response["WWW-Authenticate"] = "Token"
    return response

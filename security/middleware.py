"""A lockout raised inside a plain Django view (the admin's login form) answers 429 like the API does."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

from api.errors import error_body
from security.lockout import LockedOut


class LockoutMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, LockedOut):
            return None
        response = JsonResponse(
            error_body(exception.code, exception.localized_message(), exception.details),
            status=exception.http_status,
        )
        response["Retry-After"] = str(exception.retry_after)
        return response

"""The request id of every web request (`operations.request_id`): the client's `X-Request-ID` when valid, else a
new one; current while the request runs (its log lines, the tasks it enqueues) and returned in the response's
`X-Request-ID` header."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

from operations import request_id

_META_KEY = "HTTP_" + request_id.HEADER.upper().replace("-", "_")


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        offered = request.META.get(_META_KEY)
        rid: str = offered if isinstance(offered, str) and request_id.valid(offered) else request_id.new()
        request.request_id = rid  # type: ignore[attr-defined]
        token = request_id.activate(rid)
        try:
            response = self.get_response(request)
        finally:
            request_id.deactivate(token)
        response[request_id.HEADER] = rid
        return response

"""The machine endpoints (`/metrics`, `/health/`, `/ready/`, `/jsi18n/` and everything under `/api/`) answer
the API's error envelope, whatever goes wrong (docs/api.md, "Machine endpoints"):

- the probes and the catalog take GET and HEAD only, and check the method before anything else (no CSRF check:
  they read no cookie and change nothing), so any other method is the envelope's 405 with `Allow`;
- a path under `/api/` without its trailing slash is the envelope's 404 naming the path with the slash, not
  Django's redirect (a 301 whose HTML body a client reads as an answer, and whose POST body is lost on the way);
- a CSRF refusal on one of them is the envelope's 403 (people's pages get a page of the site:
  `play.views.csrf_failure`, the project's `CSRF_FAILURE_VIEW`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.middleware.common import CommonMiddleware as DjangoCommonMiddleware
from django.utils.translation import gettext_noop as N_
from django.views.decorators.csrf import csrf_exempt

from api.errors import ApiCode, error_json

API_PREFIX = "/api/"
PROBES = ("/metrics", "/health/", "/ready/", "/jsi18n/")
READ_METHODS = ("GET", "HEAD")


def is_machine_path(path: str) -> bool:
    """Whether `path` is one a program reads (answered in the envelope), not a person's page."""
    return path.startswith(API_PREFIX) or path in PROBES


def envelope(
    code: ApiCode, message: str, status: int, params: dict[str, Any] | None = None, **details: Any
) -> JsonResponse:
    """The refusal in the envelope, its message in the request's language (LocaleMiddleware's)."""
    return error_json(code, message, status, params, **details)


def method_not_allowed(allowed: Sequence[str]) -> JsonResponse:
    response = envelope(
        ApiCode.METHOD_NOT_ALLOWED,
        N_("Method not allowed: use %(methods)s."),
        405,
        {"methods": ", ".join(allowed)},
    )
    response["Allow"] = ", ".join(allowed)
    return response


def read_only_endpoint(
    view: Callable[..., HttpResponseBase], methods: Sequence[str] = READ_METHODS
) -> Callable[..., HttpResponseBase]:
    """`view` answering only `methods`: any other is the envelope's 405, checked before anything else (and
    without a CSRF check, which would answer Django's HTML page first)."""

    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method not in methods:
            return method_not_allowed(methods)
        return view(request, *args, **kwargs)

    answer.__name__ = getattr(view, "__name__", "endpoint")
    answer.__doc__ = view.__doc__
    return csrf_exempt(answer)


def csrf_refused(request: HttpRequest, reason: str = "") -> JsonResponse:
    """The envelope's 403 for a CSRF refusal on a machine endpoint (a session's unsafe request without its
    token)."""
    return envelope(
        ApiCode.FORBIDDEN,
        N_("CSRF check failed: send the CSRF token with a signed-in session's request."),
        403,
    )


class CommonMiddleware(DjangoCommonMiddleware):
    """Django's, except that a path under `/api/` is never redirected to the same path with a slash: the
    envelope's 404 names that path instead (`details.path`), so a client sees its mistake, whatever its method."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if (
            response.status_code == 404
            and request.path.startswith(API_PREFIX)
            and self.should_redirect_with_slash(request)
        ):
            return envelope(
                ApiCode.NOT_FOUND,
                N_("Not found: the API's paths end with a slash (%(path)s)."),
                404,
                {"path": f"{request.path}/"},
                path=f"{request.path}/",
            )
        return super().process_response(request, response)

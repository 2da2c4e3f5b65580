"""`GET /metrics`: Prometheus' text format, for the networks and the token `operations.access` lets in; anyone
else gets 404 (no token) or 403 (a wrong token), in the API's error envelope."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_noop as N_

from api.errors import ApiCode, error_json
from operations import access, exposition


@lru_cache(maxsize=4)
def _networks(values: tuple[str, ...]) -> tuple[access.Network, ...]:
    return access.parse_networks(values)


def metrics(request: HttpRequest) -> HttpResponse:
    networks = _networks(tuple(settings.RAMINO_METRICS_NETWORKS))
    found = access.verdict(request.META, networks=networks, token=settings.RAMINO_METRICS_TOKEN)
    if found is access.Verdict.UNKNOWN:
        return error_json(ApiCode.NOT_FOUND, N_("Not found."), 404)
    if found is access.Verdict.BAD_TOKEN:
        return error_json(ApiCode.FORBIDDEN, N_("You do not have permission to perform this action."), 403)
    if request.method not in ("GET", "HEAD"):
        response: HttpResponse = error_json(
            ApiCode.METHOD_NOT_ALLOWED, N_("Method not allowed: use GET."), 405
        )
        response["Allow"] = "GET, HEAD"
        return response
    response = HttpResponse(exposition.render(), content_type=exposition.CONTENT_TYPE)
    response["Cache-Control"] = "no-store"
    return response

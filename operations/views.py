"""`GET /metrics`: Prometheus' text format, for the networks and the token `operations.access` lets in; anyone
else gets 404 (no token) or 403 (a wrong token), in the API's error envelope."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from api.errors import ApiCode
from operations import access, exposition


@lru_cache(maxsize=4)
def _networks(values: tuple[str, ...]) -> tuple[access.Network, ...]:
    return access.parse_networks(values)


def _refusal(code: ApiCode, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "details": {}}}, status=status)


def metrics(request: HttpRequest) -> HttpResponse:
    networks = _networks(tuple(settings.RAMINO_METRICS_NETWORKS))
    found = access.verdict(request.META, networks=networks, token=settings.RAMINO_METRICS_TOKEN)
    if found is access.Verdict.UNKNOWN:
        return _refusal(ApiCode.NOT_FOUND, _("Not found."), 404)
    if found is access.Verdict.BAD_TOKEN:
        return _refusal(ApiCode.FORBIDDEN, _("You do not have permission to perform this action."), 403)
    if request.method not in ("GET", "HEAD"):
        response: HttpResponse = _refusal(ApiCode.METHOD_NOT_ALLOWED, _("Method not allowed: use GET."), 405)
        response["Allow"] = "GET, HEAD"
        return response
    response = HttpResponse(exposition.render(), content_type=exposition.CONTENT_TYPE)
    response["Cache-Control"] = "no-store"
    return response

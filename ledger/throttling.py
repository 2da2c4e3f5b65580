"""Per-user rate limits: staff may queue full reconciliations (each a scan of the whole ledger) a few times
an hour; a player may ask for the daily top-up a few times a minute (it is granted once a day anyway)."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView


class ReconciliationRequestThrottle(SimpleRateThrottle):
    scope = "reconciliation"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class TopUpThrottle(SimpleRateThrottle):
    scope = "top_up"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}

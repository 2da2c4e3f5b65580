"""Join-by-code attempts are rate-limited per user and per address (guessing codes must not pay)."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView


class JoinUserThrottle(SimpleRateThrottle):
    scope = "join_user"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class JoinAddressThrottle(SimpleRateThrottle):
    scope = "join_address"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

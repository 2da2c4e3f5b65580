"""The throttles of practice starts (`POST /practice/`, `POST /demo/`): per player and per address."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView


class PracticeThrottle(SimpleRateThrottle):
    """Practice starts per player (THROTTLE_PRACTICE); the demo counts against it for a signed-in caller."""

    scope = "practice"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None  # an anonymous demo: its new guest has started nothing yet (the address is counted)
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class PracticeAddressThrottle(SimpleRateThrottle):
    """Practice and demo starts per client address, whoever is signed in (THROTTLE_PRACTICE_ADDRESS): a guest
    costs nothing to make, so a per-player limit alone lets one address start as many tables as it likes."""

    scope = "practice_address"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

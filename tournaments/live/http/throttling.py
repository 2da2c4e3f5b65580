"""Rate limits of live play: join-by-code attempts per user and per address (guessing codes must not pay),
table creation per user and per address, play now and replays per user."""

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


class TableCreateUserThrottle(SimpleRateThrottle):
    """Creating a table, per player (`THROTTLE_TABLE_CREATE_USER`); admins, who create the public tables, are
    not limited. Only `POST` counts: reading the list does not."""

    scope = "table_create_user"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        user = request.user
        if request.method != "POST" or not user or not user.is_authenticated or user.is_superuser:
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


class TableCreateAddressThrottle(SimpleRateThrottle):
    """Creating a table, per client address (`THROTTLE_TABLE_CREATE_ADDRESS`): many accounts (or guests) from
    one address share it."""

    scope = "table_create_address"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        user = request.user
        if request.method != "POST" or (user and user.is_authenticated and user.is_superuser):
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class ReplayThrottle(SimpleRateThrottle):
    """Reading replays, per player (`THROTTLE_REPLAY`): a cached replay is cheap, a first one is not."""

    scope = "replay"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class PlayNowThrottle(SimpleRateThrottle):
    """Play now, per player (`THROTTLE_PLAY_NOW`): each try ranks the open tables and may take a seat, so a
    client pressing the button in a loop is slowed down (429 `throttled`)."""

    scope = "play_now"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not request.user or not request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}

"""Failed logins lock out the username, and the client address, for a while.

Every login goes through django.contrib.auth.authenticate() (the API's token view and the admin's login form
alike): LockoutBackend, first in AUTHENTICATION_BACKENDS, refuses a locked username or address before any
password is checked, and user_login_failed counts the failures. The counters live in the default cache, so
they hold across processes only when that cache is shared (CACHE_URL on Redis in production).
Names are counted whether or not such an account exists, so a lockout reveals nothing about accounts.
"""

from __future__ import annotations

import hashlib
import math
import time
import unicodedata
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from accounts.errors import AccountCode
from api.errors import ServiceError
from security.addresses import client_address

KEY_PREFIX = "ramino:lockout"


class LockedOut(ServiceError):
    """Too many failed logins, with the Retry-After to send."""

    code = AccountCode.LOCKED_OUT
    http_status = 429
    default_message = "Too many failed logins; try again later."

    def __init__(self, retry_after: int) -> None:
        super().__init__(details={"retry_after_seconds": retry_after})
        self.retry_after = retry_after


def _username_ident(username: str) -> str:
    # Usernames are unique case-insensitively, so "Ann" and "ann" share one counter; hashed, so that any
    # submitted string makes a valid, bounded cache key.
    normalized = unicodedata.normalize("NFKC", username).strip().casefold()
    return hashlib.sha256(normalized.encode()).hexdigest()


def _subjects(*, username: str | None, address: str | None) -> list[tuple[str, int]]:
    """(cache key stem, failures that lock it) for each subject that takes part."""
    subjects: list[tuple[str, int]] = []
    if username:
        subjects.append((f"user:{_username_ident(username)}", settings.RAMINO_LOCKOUT_USER_FAILURES))
    if address:
        subjects.append((f"address:{address}", settings.RAMINO_LOCKOUT_ADDRESS_FAILURES))
    return [(stem, limit) for stem, limit in subjects if limit > 0]


def seconds_locked(*, username: str | None, address: str | None) -> int:
    """Seconds until neither the username nor the address is locked (0: not locked)."""
    keys = [f"{KEY_PREFIX}:locked:{stem}" for stem, _ in _subjects(username=username, address=address)]
    if not keys:
        return 0
    remaining = max((until - time.time() for until in cache.get_many(keys).values()), default=0.0)
    return max(1, math.ceil(remaining)) if remaining > 0 else 0


def record_failure(*, username: str | None, address: str | None) -> None:
    """Count a failed login; the limit-th failure within RAMINO_LOCKOUT_SECONDS locks for as long."""
    seconds = settings.RAMINO_LOCKOUT_SECONDS
    for stem, limit in _subjects(username=username, address=address):
        failures_key = f"{KEY_PREFIX}:failures:{stem}"
        # add + incr: atomic on Redis, so that concurrent guesses from many processes are all counted.
        cache.add(failures_key, 0, timeout=seconds)
        try:
            failures = cache.incr(failures_key)
        except ValueError:  # the window ended between add and incr
            cache.set(failures_key, 1, timeout=seconds)
            failures = 1
        if failures >= limit:
            cache.set(f"{KEY_PREFIX}:locked:{stem}", time.time() + seconds, timeout=seconds)
            cache.delete(failures_key)


def _address_of(request: Any) -> str | None:
    return client_address(request) if request is not None else None


class LockoutBackend:
    """Authenticates nobody: refuses a locked username or address before the real backends run.

    Deliberately not a BaseBackend: without get_user() it is never the backend a session is tied to
    (Client.force_login and login() pick the first backend that has one).
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        wait = seconds_locked(username=username, address=_address_of(request))
        if wait:
            # Not PermissionDenied: authenticate() would turn that into an ordinary failed login (and count
            # it); this propagates to the API's exception handler or LockoutMiddleware, which answer 429.
            raise LockedOut(wait)
        return None


def on_login_failed(sender: object, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    username = credentials.get("username")
    record_failure(username=username if isinstance(username, str) else None, address=_address_of(request))

"""The client's address, as far as the configured proxies vouch for it (NUM_PROXIES, docs/operations.md)."""

from typing import cast

from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle


def client_address(request: HttpRequest | Request) -> str:
    # DRF's own rule, so that the throttles and the lockouts always agree on who the client is: with
    # NUM_PROXIES = 0 the peer address (X-Forwarded-For ignored), with N the N-th address from the right of
    # X-Forwarded-For, the one the outermost trusted proxy saw. It reads only request.META.
    return str(BaseThrottle().get_ident(cast(Request, request)))

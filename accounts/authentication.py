"""The API's token authentication: django-rest-knox's (`Authorization: Token <token>`; the token is looked up
by its digest and refused once expired), plus one answer DRF's class had and knox's lacks; and the same read
by one hand-written statement for the live-play endpoints (`RowTokenAuthentication`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from rest_framework import exceptions

from accounts import selectors


def token_text(token: bytes) -> str:
    """The token of the header as text; a header that is not UTF-8 is refused (knox would answer 500)."""
    try:
        return token.decode("utf-8")
    except UnicodeDecodeError:
        raise exceptions.AuthenticationFailed(
            _("Invalid token header. Token string should not contain invalid characters.")
        ) from None


class TokenAuthentication(KnoxTokenAuthentication):  # type: ignore[misc]  # knox is untyped
    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        token_text(token)
        return super().authenticate_credentials(token)  # type: ignore[no-any-return]


class RowTokenAuthentication(TokenAuthentication):
    """The project's token authentication (knox's) with the token and its user read by one hand-written
    statement (`selectors.unexpired_token`) instead of knox's ORM queries (docs/performance.md). The token is
    found by its digest (the table's primary key; comparing digests, not tokens, leaks nothing usable through
    timing) among the unexpired ones. Same answers: 401 "Invalid token." for an unknown or expired token,
    "User inactive or deleted." for an inactive user. Unlike knox's class it deletes nothing: expired tokens
    are purged by a beat task."""

    def authenticate_credentials(self, token: bytes) -> tuple[Any, Any]:
        found = selectors.unexpired_token(digest=hash_token(token_text(token)))
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        auth_token, user = found
        if auth_token is None or user is None or not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        auth_token.user = user
        return user, auth_token

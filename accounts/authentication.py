"""The API's token authentication: django-rest-knox's (`Authorization: Token <token>`; the token is looked up
by its digest and refused once expired), plus one answer DRF's class had and knox's lacks."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions


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

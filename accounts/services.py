"""Registration and the lifecycle of API tokens (django-rest-knox: stored as digests, expiring, one per login)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.models import AuthToken

from accounts import selectors

USERNAME_TAKEN = _("This username is taken.")


def _username_taken() -> ValidationError:
    return ValidationError({"username": [USERNAME_TAKEN]})


def register_user(*, username: str, password: str) -> Any:
    """Create a player. A name taken in any case is refused with a validation error on `username`, the same
    one whether the other registration came long before or raced this one: the loser of a race is turned
    away by the database's unique index on the folded name, and reported like a sequential duplicate."""
    if selectors.username_taken(username=username):
        raise _username_taken()
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(username=username, password=password)
    except IntegrityError:
        if selectors.username_taken(username=username):
            raise _username_taken() from None
        raise


def create_token(*, user: Any) -> tuple[AuthToken, str]:
    """A new token for one client (each login is a device of its own); the clear token is returned once and
    only its digest is stored. It expires after REST_KNOX["TOKEN_TTL"]."""
    instance, token = AuthToken.objects.create(user=user)
    return instance, token


def revoke_token(*, token: AuthToken) -> None:
    """Log one client out."""
    AuthToken.objects.filter(pk=token.pk).delete()


def revoke_all_tokens(*, user: Any) -> int:
    """Log every client of `user` out (logout of all devices; a password change); the number revoked."""
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return int(deleted)


def purge_expired_tokens(*, now: datetime | None = None) -> int:
    """Delete the tokens past their expiry (they already fail authentication); the number deleted."""
    deleted, _ = AuthToken.objects.filter(expiry__lt=now or timezone.now()).delete()
    return int(deleted)

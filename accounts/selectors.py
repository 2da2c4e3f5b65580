"""Reads about accounts that the services and views share."""

from typing import Any

from django.contrib.auth import get_user_model

from accounts import usernames
from accounts.models import UsernameKey


def username_taken(*, username: str, except_user_id: Any = None) -> bool:
    """Whether a user holds this name in any case or form: usernames are unique once normalised and
    case-folded (`UsernameKey`'s unique index enforces it; the folded-name index of migration 0001 too, for
    ASCII case). The same test as a query."""
    keys = UsernameKey.objects.exclude(user_id=except_user_id)
    users = get_user_model().objects.exclude(pk=except_user_id)
    return (
        keys.filter(folded=usernames.folded(username)).exists()
        or users.filter(username__iexact=usernames.normalise(username)).exists()
    )


def username_looks_taken(*, username: str, except_user_id: Any = None) -> bool:
    """Whether a user holds a name that reads the same as this one (the same `usernames.confusable_key`:
    `dee` in Cyrillic letters for `dee`) but is not the same name once case-folded (that one is taken: `username_taken`);
    `UsernameKey`'s unique index on the key enforces it."""
    return (
        UsernameKey.objects.exclude(user_id=except_user_id)
        .filter(skeleton=usernames.confusable_key(username))
        .exclude(folded=usernames.folded(username))
        .exists()
    )


def is_guest(*, user: Any) -> bool:
    """Whether the user is a guest of the demo (accounts.services.create_guest): a guest's name, which
    registration refuses, and no password. Guests get no chips (no welcome chips, no daily top-up)."""
    return bool(
        user is not None
        and getattr(user, "is_authenticated", False)
        and usernames.is_guest_name(user.get_username())
        and not user.has_usable_password()
    )

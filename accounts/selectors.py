"""Reads about accounts that the services and views share."""

from django.contrib.auth import get_user_model

from accounts import usernames
from accounts.models import UsernameKey


def username_taken(*, username: str) -> bool:
    """Whether a user holds this name in any case or form: usernames are unique once normalised and
    case-folded (`UsernameKey`'s unique index enforces it; the folded-name index of migration 0001 too, for
    ASCII case). The same test as a query."""
    return (
        UsernameKey.objects.filter(folded=usernames.folded(username)).exists()
        or get_user_model().objects.filter(username__iexact=usernames.normalise(username)).exists()
    )

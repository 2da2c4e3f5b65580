"""Reads about accounts that the services and views share."""

from django.contrib.auth import get_user_model


def username_taken(*, username: str) -> bool:
    """Whether a user holds this name in any case: usernames are unique case-insensitively (the folded-name
    index of migration 0001 enforces it; this is the same test as a query)."""
    return get_user_model().objects.filter(username__iexact=username).exists()

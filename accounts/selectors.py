"""Reads about accounts that the services and views share."""

from collections.abc import Iterable
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone
from knox.models import AuthToken, get_token_model

from accounts import usernames
from accounts.models import UsernameKey
from database import rows


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


def unexpired_token(*, digest: str) -> tuple[AuthToken | None, User | None] | None:
    """The unexpired API token with this digest (the table's primary key) and its user, read by one
    hand-written statement (database/rows.py) instead of knox's ORM queries, whose building and compiling
    cost more CPU than the rest of a move's reads; None when there is none."""
    token_model = cast(type[AuthToken], get_token_model())
    user_model = get_user_model()
    # docs/performance.md#hand-written-statements: token-read (0.31 → 0.10-0.15 ms CPU).
    found = rows.fetch(
        f"SELECT {rows.columns(token_model, 'k')}, {rows.columns(user_model, 'u')}"
        f" FROM {rows.table(token_model)} k JOIN {rows.table(user_model)} u ON u.id = k.user_id"
        " WHERE k.digest = %s AND (k.expiry IS NULL OR k.expiry >= %s)",
        [digest, timezone.now()],
    )
    if not found:
        return None
    width = rows.width(token_model)
    return rows.from_row(token_model, found[0][:width]), cast(
        User | None, rows.from_row(user_model, found[0][width:])
    )


# Digests asked about in one statement at most (a socket process asks about all of its sockets' at once).
_DIGESTS_PER_STATEMENT = 500


def standing_token_digests(*, digests: Iterable[str]) -> set[str]:
    """Which of these token digests still stand: the token unexpired and its user active (what
    `RowTokenAuthentication` lets in), read for many tokens at once (the socket tier's periodic check of all of a
    process's sockets: one statement per 500 tokens instead of one per socket)."""
    token_model = cast(type[AuthToken], get_token_model())
    wanted = sorted(set(digests))
    now = timezone.now()
    standing: set[str] = set()
    for start in range(0, len(wanted), _DIGESTS_PER_STATEMENT):
        chunk = wanted[start : start + _DIGESTS_PER_STATEMENT]
        found = token_model.objects.filter(digest__in=chunk, user__is_active=True).filter(
            Q(expiry__isnull=True) | Q(expiry__gte=now)
        )
        standing.update(found.values_list("digest", flat=True))
    return standing

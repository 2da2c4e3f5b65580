"""Registration and the lifecycle of API tokens (django-rest-knox: stored as digests, expiring, one per login)."""

from __future__ import annotations

import secrets
from datetime import date, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy
from knox.models import AuthToken

from accounts import birth_dates, selectors, usernames
from accounts.errors import UsernameConfusable, UsernameInvisible, UsernameLookalike, UsernameReserved
from ledger.services import grants

USERNAME_TAKEN = gettext_lazy("This username is taken.")
USERNAME_MALFORMED = gettext_lazy("3 to 32 letters or digits (any alphabet), or _ . -")


def _username_taken() -> ValidationError:
    return ValidationError({"username": [str(USERNAME_TAKEN)]})


def register_user(*, username: str, password: str, date_of_birth: date) -> Any:
    """Create a player, with the house's welcome chips when the grant policy gives any, and their date of birth
    (under 18 refused first: `player.underage`, docs/rules.md "Responsible play").

    The name is normalised (NFKC) and stored so. Refused: one holding a character that shows nothing
    (`UsernameInvisible`); a malformed one (a validation error on `username`); one reading as a guest's or a
    bot's (`UsernameReserved`); one mixing look-alike letters of several scripts (`UsernameConfusable`). A name
    taken in any case or form (the same once case-folded) is refused with a validation error on `username`,
    and one that reads the same as a taken one (`usernames.confusable_key`) with `UsernameLookalike`, the same
    whether the other registration came long before or raced this one: the loser of a race is turned away by
    the database's unique indexes, and reported like a sequential duplicate.

    The welcome chips are posted in the transaction that creates the user, not on commit: the user and their
    chips commit together or not at all (a crash between the two cannot leave a player without them, and a
    refused registration posts nothing), and the key `grant:welcome:<user id>` posts them once."""
    birth_dates.refuse_underage(date_of_birth)
    refuse_invisible(username)
    username = usernames.normalise(username)
    if not usernames.is_well_formed(username):
        raise ValidationError({"username": [str(USERNAME_MALFORMED)]})
    if usernames.is_reserved(username):
        raise UsernameReserved(details={"username": username})
    if usernames.is_confusable(username):
        raise UsernameConfusable(details={"username": username})
    if selectors.username_taken(username=username):
        raise _username_taken()
    if selectors.username_looks_taken(username=username):
        raise UsernameLookalike(details={"username": username})
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(username=username, password=password)
            birth_dates.record(user=user, date_of_birth=date_of_birth)
            grants.post_welcome_grant(user=user)
            return user
    except IntegrityError:
        if selectors.username_taken(username=username):
            raise _username_taken() from None
        if selectors.username_looks_taken(username=username):
            raise UsernameLookalike(details={"username": username}) from None
        raise


def refuse_invisible(username: str) -> None:
    """`UsernameInvisible` when the name (as typed) holds a character that shows nothing; its code points in
    `details.characters`."""
    invisible = usernames.invisible_characters(username)
    if invisible:
        characters = ", ".join(invisible)
        raise UsernameInvisible(params={"characters": characters}, details={"characters": invisible})


GUEST_ATTEMPTS = 20


def create_guest() -> Any:
    """A guest for the landing page's demo: "Guest " and six random characters (`usernames.GUEST_ALPHABET`),
    no usable password (nobody can sign in as them: only the token made with them plays), and no chips: the
    welcome grant is not posted and the daily top-up refuses guests (ledger.services.grants). A name already
    taken is drawn again (31^6, about 890 million names)."""
    model = get_user_model()
    for _ in range(GUEST_ATTEMPTS):
        tail = "".join(secrets.choice(usernames.GUEST_ALPHABET) for _ in range(usernames.GUEST_LENGTH))
        username = usernames.GUEST_PREFIX + tail
        if selectors.username_taken(username=username):
            continue
        try:
            with transaction.atomic():
                user = model(username=username)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            continue  # taken by a guest made at the same moment: draw again
    raise RuntimeError(f"No free guest name after {GUEST_ATTEMPTS} draws.")


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

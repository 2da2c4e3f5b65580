"""Usernames in any script: normalised (NFKC) before they are checked or stored, unique whatever their case
(NFKC and case folding: `folded`), and refused when they mix scripts in a way that can pass for another name.

Pure functions of the name: the registration service and the sign-in call them, so that a name is the same
name whichever way the keyboard composed it ("niccolò" typed as o + combining grave, "ｎｉｃｃｏｌò" in full
width).
"""

from __future__ import annotations

import unicodedata

from confusable_homoglyphs import confusables

MIN_LENGTH = 3
MAX_LENGTH = 32
# Besides letters and digits of any script (str.isalnum, after NFKC).
PUNCTUATION = "_.-"


# Guests (the landing page's demo): "Guest " and six characters of an alphabet with no look-alikes (no 0/O,
# 1/I/L). The space makes the name one registration refuses, so no person can register or take it.
GUEST_PREFIX = "Guest "
GUEST_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
GUEST_LENGTH = 6


def is_guest_name(username: str) -> bool:
    """Whether the name is a guest's ("Guest " and six characters of the guest alphabet)."""
    tail = username[len(GUEST_PREFIX) :]
    return (
        username.startswith(GUEST_PREFIX)
        and len(tail) == GUEST_LENGTH
        and all(c in GUEST_ALPHABET for c in tail)
    )


def normalise(username: str) -> str:
    """The name as it is stored and signed in with: NFKC (compatibility composition), case kept."""
    return unicodedata.normalize("NFKC", username)


def folded(username: str) -> str:
    """The name's identity for uniqueness: NFKC, case-folded, NFKC again (folding can decompose). Two names
    with the same folded form are the same name: only one of them can be registered."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def is_well_formed(username: str) -> bool:
    """3 to 32 characters, each a letter or digit of any script or one of `_ . -` (the name normalised)."""
    return MIN_LENGTH <= len(username) <= MAX_LENGTH and all(
        char.isalnum() or char in PUNCTUATION for char in username
    )


def is_confusable(username: str) -> bool:
    """Whether the name mixes scripts with letters that look like another script's (a Cyrillic a, U+0430, in a Latin
    name): such a name can pass for someone else's. Names in one script, with digits and `_ . -`, pass."""
    return bool(confusables.is_dangerous(username))

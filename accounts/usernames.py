"""Usernames in any script: normalised (NFKC) before they are checked or stored, unique whatever their case
(NFKC and case folding: `folded`), and refused when they mix scripts in a way that can pass for another name,
when they look like a name already taken (`confusable_key`: Unicode TS #39's skeleton), when they hold a
character that shows nothing (`invisible_characters`), or when they read as a guest's or a bot's
(`is_reserved`).

Pure functions of the name: the registration service and the sign-in call them, so that a name is the same
name whichever way the keyboard composed it ("niccolò" typed as o + combining grave, "ｎｉｃｃｏｌò" in full
width).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

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


# Characters that show nothing: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt: soft hyphen,
# zero-width spaces and joiners, bidirectional controls, variation selectors, tags, the Hangul fillers...) and
# the blank Braille pattern. A name holding one could pass for another, or be invisible (three Hangul fillers).
INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_invisible(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in INVISIBLE_RANGES)


def invisible_characters(username: str) -> list[str]:
    """The code points (`U+3164`) of the characters of `username` that show nothing, as typed or once
    normalised (NFKC turns U+FFA0 and U+3164 into U+1160), each once, in order."""
    found: list[str] = []
    for char in username + unicodedata.normalize("NFKC", username):
        name = f"U+{ord(char):04X}"
        if is_invisible(char) and name not in found:
            found.append(name)
    return found


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Unicode TS #39's confusables (confusables.txt): each character's prototype, read from the data
    confusable_homoglyphs ships. Its file keeps each line `source ; prototype` as two entries (each character
    lists the other), in the file's order: a source is one line's first character, so it lists exactly one
    character; a prototype lists all its sources. Where both list only each other (one line), the source is the
    one the file names first."""
    data = confusables.confusables_data
    order = {key: index for index, key in enumerate(data)}
    prototypes: dict[str, str] = {}
    for key, entries in data.items():
        if len(key) != 1 or len(entries) != 1:
            continue
        target = entries[0]["c"]
        partners = data.get(target, [])
        if len(partners) > 1 or (partners and partners[0]["c"] == key and order[key] < order[target]):
            prototypes[key] = target
    return prototypes


def skeleton(text: str) -> str:
    """TS #39's skeleton: NFD, each character replaced by its prototype (default-ignorable ones dropped), NFD
    again. Two strings with the same skeleton can be told apart by no reader (`dee` in Cyrillic letters and `dee`)."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text) if not is_invisible(c))
    return unicodedata.normalize("NFD", mapped)


def confusable_key(username: str) -> str:
    """The name's look-alike identity, stored unique beside `folded` (`UsernameKey.skeleton`): the skeleton
    of the normalised name, case-folded, and the skeleton again, so that neither the alphabet (`dee` or `cid` in Cyrillic letters)
    nor the case (`Ian` and `lan`) nor the compatibility form makes a second name that reads as the first."""
    return skeleton(skeleton(normalise(username)).casefold())


# Guests are "Guest XXXXXX" and the practice bots "Bot Anna"...: no name that reads as one may be registered.
RESERVED_PREFIXES = ("guest", "bot")
_AFTER_PREFIX = re.compile(r"(?:[_.\-0-9]|$)")


def is_reserved(username: str) -> bool:
    """Whether the name reads as a guest's or a bot's: "guest" or "bot" in any case and alphabet, alone or
    followed by a separator (`_ . -`) or a digit (`Guest_MZG9FK`, `guest-x`, `BOT.anna`, `bot7`), or written
    `Guest` or `Bot` followed by a capital (`GuestMZG9FK`, `BotAnna`). `Botticelli` and `guesthouse` pass."""
    name = normalise(username)
    for form in (folded(name), confusable_key(name)):
        for prefix in RESERVED_PREFIXES:
            if form.startswith(prefix) and _AFTER_PREFIX.match(form, len(prefix)):
                return True
    return any(
        name.startswith(prefix) and name[len(prefix) : len(prefix) + 1].isupper()
        for prefix in ("Guest", "Bot")
    )

"""The quick phrases (docs/rules.md "Chat"): a fixed list, each in Italian and English. A message sent as a
phrase stores its code; each reader sees it in their own language."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_noop as N_

# code → the phrase in English (a msgid: the Italian is the catalog's).
PHRASES: dict[str, str] = {
    "good_luck": N_("Good luck"),
    "have_fun": N_("Have fun"),
    "well_played": N_("Well played"),
    "good_game": N_("Good game"),
    "thanks": N_("Thanks"),
    "nice_hand": N_("Nice hand"),
    "sorry": N_("Sorry"),
    "be_right_back": N_("Be right back"),
    "hurry_please": N_("A bit faster, please"),
    "bye": N_("Bye"),
}


def text_of(code: str, language: str | None = None) -> str:
    """The phrase in `language` (the active one when None)."""
    english = PHRASES[code]
    if language is None:
        return translation.gettext(english)
    with translation.override(language):
        return translation.gettext(english)


def listed(language: str | None = None) -> list[dict[str, str]]:
    return [{"code": code, "text": text_of(code, language)} for code in PHRASES]

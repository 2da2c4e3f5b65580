"""The audit pages' numbers and codes for people: chips grouped in the page's language (10,000 in English, 10.000
in Italian), and every stored code (a kind, a status, a game, a tie rule, a ledger reason) in words. The CSV
exports write plain numbers and the stored codes (audit.exports)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from ledger import words
from ledger.models import AccountKind, TransferKind
from tournaments.games import GAME_NAMES

register = template.Library()

# The transfer kinds and account kinds are the models' own choices (ledger.models), in words.
TRANSFER_KINDS = dict(TransferKind.choices)
ACCOUNT_KINDS = dict(AccountKind.choices)


@register.filter
def chips(value: Any) -> str:
    """An integer with the language's thousands separator; anything else (None, "") as it is."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "" if value is None else str(value)
    return number_format(value, force_grouping=True)


@register.filter
def signed_chips(value: Any) -> str:
    """As `chips`, with a + before a gain."""
    shown = chips(value)
    return f"+{shown}" if isinstance(value, int) and value > 0 else shown


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """`mapping[key]`, or the key itself when the mapping lacks it (a status or kind name for people)."""
    try:
        return mapping.get(key, key)
    except AttributeError:
        return key


@register.filter
def transfer_kind(kind: Any) -> str:
    """A ledger transfer's kind in words for people ("buy-in", "tournament entry")."""
    return str(TRANSFER_KINDS.get(str(kind), kind))


@register.filter
def account_kind(kind: Any) -> str:
    return str(ACCOUNT_KINDS.get(str(kind), kind))


@register.filter
def reason(stored: Any) -> str:
    """A transfer's stored reason in the page's language when the site wrote it (ledger.words.reason_text)."""
    return words.reason_text(str(stored or ""))


@register.filter
def trigger(code: Any) -> str:
    """How a reconciliation run was started, in words."""
    return words.word(words.TRIGGERS, code)


@register.filter
def tie_rule(code: Any) -> str:
    return words.word(words.TIE_RULES, code)


@register.filter
def game_name(code: Any) -> str:
    """A game preset by its name for people ("Rummy 500", "Ramino 500")."""
    return str(GAME_NAMES.get(str(code), code))


@register.filter
def chip_type(code: Any) -> str:
    """A chip type in words: the site's chips, or a tournament's own ("chips of tournament 4")."""
    return words.chip_type_text(str(code))


@register.filter
def poster(transfer: Any) -> str:
    """Who posted a transfer: the person, or "the system" (its process's name stays in the admin)."""
    if transfer.posted_by_id is not None:
        return str(transfer.posted_by.get_username())
    return str(_("the system")) if transfer.posted_by_system else ""

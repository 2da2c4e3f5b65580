"""The audit pages' numbers for people: chips grouped in the page's language (10,000 in English, 10.000 in
Italian). The CSV exports write plain numbers (audit.exports)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

register = template.Library()

TRANSFER_KINDS = {
    "adjustment": _("adjustment"),
    "buy_in": _("buy-in (wallet to seat)"),
    "cash_out": _("cash-out (seat to wallet)"),
    "settlement": _("settlement"),
    "bonus_settlement": _("bonus settlement"),
    "tournament_buy_in": _("tournament entry (wallet to entry)"),
    "fee": _("fee"),
    "payout": _("prize"),
    "refund": _("refund"),
    "reversal": _("reversal"),
    "mint": _("tournament chips issued"),
    "retire": _("tournament chips retired"),
    "guarantee": _("guarantee"),
    "transfer": _("transfer"),
}
ACCOUNT_KINDS = {
    "wallet": _("player wallet"),
    "house_cashier": _("house cashier"),
    "house_fees": _("house fees"),
    "seat_stack": _("table seat stack"),
    "prize_pool": _("tournament prize pool"),
    "tournament_mint": _("tournament chip mint"),
}


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

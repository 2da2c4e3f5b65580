"""A transfer's computation record (`Transfer.computation`, the numbers its posting stored) as people read it:
one row per value, each named in the page's language, numbers grouped as the language writes them, codes in
words, and the lists of a settlement (its payers, who paid whom) as small tables. The audit transfer page shows
it (audit/templates/audit/computation.html); the JSON stays as stored for the API and the CSV."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from audit.templatetags.audit_format import chips
from ledger.words import TIE_RULES, WHYS, word

NOTHING = "\u2013"  # an en dash: no value


@dataclass
class Row:
    """One value of the record: its name and either a line of text or a table (headers and rows)."""

    key: str
    label: str
    text: str = ""
    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


LABELS: dict[str, Promise] = {
    "rule": _("Rule"),
    "pcr": _("PCR of the round"),
    "table_pcr": _("Table PCR"),
    "multiplier": _("Multiplier"),
    "tournament": _("Tournament"),
    "level": _("Level"),
    "level_pcr": _("PCR of the level"),
    "seat_order": _("Seat order"),
    "scores": _("Scores"),
    "stacks": _("Chips at the start"),
    "top_score": _("Top score"),
    "tied_at_top": _("Tied at the top"),
    "tie_keys": _("Tie-break keys"),
    "tie_rule": _("Tie rule"),
    "winners": _("Winners"),
    "payers": _("Who owed what"),
    "transfers": _("Who paid whom"),
    "buy_in": _("Buy-in"),
    "fee": _("Fee"),
    "why": _("Why"),
    "reentries": _("Re-entries"),
    "starting_stack": _("Starting chips"),
    "seats": _("Seats"),
    "from_table": _("From table"),
    "to_table": _("To table"),
    "chips": _("Chips"),
    "guarantee": _("Guaranteed prize pool"),
    "buy_ins": _("Buy-ins paid"),
    "pool": _("Prize pool"),
    "payouts": _("Payouts by place"),
    "shares": _("Paid to each player"),
    "reverses": _("Reverses transfer"),
    "username": _("Player"),
    "amount": _("Amount"),
    "grant": _("Grant"),
    "day": _("Day"),
    "balance": _("Wallet before"),
    "floor": _("Top-up floor"),
}
RULES: dict[str, Promise] = {"pcr": _("points times the PCR (chips per point)")}


def _value(value: Any) -> str:
    """A plain value: numbers grouped, booleans and nothing in words, lists joined."""
    if value is None:
        return NOTHING
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int):
        return chips(value)
    if isinstance(value, list):
        return ", ".join(_value(item) for item in value) or NOTHING
    if isinstance(value, dict):
        return ", ".join(f"{name} {_value(item)}" for name, item in value.items()) or NOTHING
    return str(value)


def _per_player(value: Any, heading: Promise) -> tuple[list[str], list[list[str]]]:
    return [gettext("Player"), str(heading)], [[str(name), _value(item)] for name, item in value.items()]


def _payers(value: Any) -> tuple[list[str], list[list[str]]]:
    headers = [
        gettext("Player"),
        gettext("Score"),
        gettext("Difference"),
        gettext("Owed (\u00d7 PCR)"),
        gettext("Chips at the start"),
        gettext("Payable (own-stack cap)"),
        gettext("Paid"),
        gettext("Kept by caps"),
        gettext("Shares"),
    ]
    rows = []
    for line in value:
        shares = "; ".join(
            gettext("%(payee)s: %(paid)s of %(due)s")
            % {
                "payee": share.get("payee"),
                "paid": _value(share.get("paid")),
                "due": _value(share.get("due")),
            }
            for share in line.get("shares", [])
        )
        rows.append(
            [
                str(line.get("player", "")),
                *(
                    _value(line.get(key))
                    for key in ("score", "difference", "owed", "stack", "payable", "paid")
                ),
                _value(line.get("kept")),
                shares,
            ]
        )
    return headers, rows


def _payments(value: Any) -> tuple[list[str], list[list[str]]]:
    headers = [gettext("Paid by"), gettext("Paid to"), gettext("Chips")]
    return headers, [[str(a), str(b), _value(c)] for a, b, c in value]


TABLES: dict[str, Callable[[Any], tuple[list[str], list[list[str]]]]] = {
    "payers": _payers,
    "transfers": _payments,
    "scores": lambda value: _per_player(value, _("Score")),
    "stacks": lambda value: _per_player(value, _("Chips")),
    "shares": lambda value: _per_player(value, _("Chips")),
}
TEXTS: dict[str, Callable[[Any], str]] = {
    "rule": lambda value: word(RULES, value),
    "tie_rule": lambda value: word(TIE_RULES, value),
    "why": lambda value: word(WHYS, value),
    "grant": lambda value: word(WHYS, value),
    "payouts": lambda value: (
        ", ".join(f"{_value(p)} %" for p in value) if isinstance(value, list) else _value(value)
    ),
    "reverses": lambda value: f"#{value}",
    "tie_keys": lambda value: (
        NOTHING if not value else "; ".join(f"{name}: {_value(key)}" for name, key in value.items())
    ),
}


def computation_rows(computation: Any) -> list[Row]:
    """The record's values in reading order, each as a line of text or a table."""
    if not isinstance(computation, dict):
        return [Row(key="", label=gettext("Computation"), text=str(computation))]
    found: list[Row] = []
    order = list(LABELS)
    # In the order a reader follows (the rule, the scores, who owed and paid), whatever order the database kept.
    ordered = sorted(
        computation.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order)
    )
    for key, value in ordered:
        label = str(LABELS.get(key, key))
        table = TABLES.get(key)
        if table is not None and isinstance(value, (list, dict)) and value:
            try:
                headers, rows = table(value)
            except (AttributeError, TypeError, ValueError):  # a shape this page does not know: said plainly
                found.append(Row(key=key, label=label, text=_value(value)))
            else:
                found.append(Row(key=key, label=label, headers=headers, rows=rows))
            continue
        text = TEXTS.get(key)
        found.append(Row(key=key, label=label, text=text(value) if text is not None else _value(value)))
    return found

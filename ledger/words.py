"""The ledger's stored codes and reasons in people's words, for the pages people read (the audit pages, the
admin). What is stored never changes: the ledger is append-only (database triggers refuse updates), and a
transfer's `reason` stays the English text its posting wrote, the record an API client and the CSV export read.

A reason the site writes itself follows one of a few patterns ("cash-out at table 3", "round 2 of table 3",
"daily top-up to 500"); `reason_text` matches them and says the same in the page's language. Any other reason
(an admin's own words for an adjustment, a posting newer than this list) is shown as it was written.
docs/operations.md, "Ledger reasons in people's words", lists the patterns."""

from __future__ import annotations

import re
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

_ID = r"(?P<{}>\d+)"


def _pattern(text: str) -> re.Pattern[str]:
    """`text` with `{name}` for a number, as an anchored regular expression."""
    parts = re.split(r"\{(\w+)\}", text)
    source = "".join(re.escape(part) if i % 2 == 0 else _ID.format(part) for i, part in enumerate(parts))
    return re.compile(f"^{source}$")


# The reasons the site's postings write (ledger.services, tournaments), each with its words for people.
REASONS: tuple[tuple[re.Pattern[str], Promise], ...] = tuple(
    (_pattern(stored), words)
    for stored, words in (
        ("buy-in at table {table}", _("Buy-in at table %(table)s")),
        ("top-up at table {table}", _("Chips added at table %(table)s")),
        ("cash-out at table {table}", _("Cash-out at table %(table)s")),
        ("round {round} of table {table}", _("Round %(round)s at table %(table)s")),
        ("bonus of round {round} of table {table}", _("Bonus of round %(round)s at table %(table)s")),
        ("reversal of transfer #{transfer}", _("Reversal of transfer #%(transfer)s")),
        ("admin reversal of transfer #{transfer}", _("Reversal of transfer #%(transfer)s by an admin")),
        ("welcome chips", _("Welcome chips from the house")),
        ("daily top-up to {floor}", _("Daily top-up to %(floor)s chips")),
        ("buy-in and fee of tournament {tournament}", _("Buy-in and fee of tournament %(tournament)s")),
        (
            "refund of the entry into tournament {tournament}",
            _("Refund of the entry into tournament %(tournament)s"),
        ),
        (
            "guarantee shortfall of tournament {tournament}",
            _("Guaranteed prizes of tournament %(tournament)s"),
        ),
        ("prizes of tournament {tournament}", _("Prizes of tournament %(tournament)s")),
        ("cancellation of tournament {tournament}", _("Cancellation of tournament %(tournament)s")),
        ("re-entry into tournament {tournament}", _("Re-entry into tournament %(tournament)s")),
        (
            "late registration into tournament {tournament}",
            _("Late registration into tournament %(tournament)s"),
        ),
        ("starting stack of tournament {tournament}", _("Starting chips of tournament %(tournament)s")),
        (
            "starting stacks of tournament {tournament} at table {table}",
            _("Starting chips of tournament %(tournament)s at table %(table)s"),
        ),
        (
            "moved from table {source} to table {destination}",
            _("Moved from table %(source)s to table %(destination)s"),
        ),
        ("tournament chips retired from table {table}", _("Tournament chips retired from table %(table)s")),
        ("demo funding", _("Demo chips")),
        (
            "ticket entry into tournament {tournament}",
            _("Entry into tournament %(tournament)s paid with a ticket"),
        ),
        (
            "ticket returned on leaving tournament {tournament}",
            _("Ticket returned on leaving tournament %(tournament)s"),
        ),
        ("ticket prizes of tournament {tournament}", _("Tickets won in tournament %(tournament)s")),
        (
            "tickets converted to chips: tournament {tournament}",
            _("Tickets to tournament %(tournament)s converted to chips"),
        ),
        (
            "tickets converted to chips: recurring tournament {template}",
            _("Tickets to recurring tournament %(template)s converted to chips"),
        ),
    )
)


def reason_text(reason: str) -> str:
    """A stored reason in the active language: a pattern the site writes in its words, anything else as is."""
    for pattern, words in REASONS:
        found = pattern.match(reason)
        if found is not None:
            return str(words) % found.groupdict()
    return reason


def chip_type_text(code: str) -> str:
    """A chip type in words: `site` the site's chips, `tournament:<id>` a multi-table tournament's own."""
    if code == "site":
        return str(_("site chips"))
    found = re.fullmatch(r"tournament:(\d+)", code)
    if found is not None:
        return str(_("chips of tournament %(id)s")) % {"id": found.group(1)}
    found = re.fullmatch(r"ticket:tournament:(\d+)", code)
    if found is not None:
        return str(_("tickets to tournament %(id)s")) % {"id": found.group(1)}
    found = re.fullmatch(r"ticket:template:(\d+)", code)
    if found is not None:
        return str(_("tickets to the next tournament of recurring tournament %(id)s")) % {
            "id": found.group(1)
        }
    return code


# How a reconciliation run was started (`ReconciliationRun.trigger`).
TRIGGERS: dict[str, Promise] = {
    "task": _("nightly schedule"),
    "on_demand": _("asked by staff"),
    "first_read": _("first reading of the status"),
    "manual": _("by hand"),
}
# How a settlement treated the top score (`ledger.settlement`'s tie rules, a settlement's `tie_rule`).
TIE_RULES: dict[str, Promise] = {
    "single_winner": _("one winner"),
    "tie_shared": _("a tie: the winners share"),
    "tie_broken_by_keys": _("a tie broken by the tie-break keys"),
    "tie_keys_then_shared": _("a tie: the tie-break keys, then shared"),
}
# Why a tournament paid out (a payout's `why`), and which grant a grant transfer was (its `grant`).
WHYS: dict[str, Promise] = {
    "prizes": _("prizes"),
    "cancellation": pgettext_lazy("payout", "cancellation"),
    "welcome": _("welcome chips"),
    "daily": _("daily top-up"),
    "satellite": _("satellite prizes"),
}


def word(mapping: dict[str, Promise], code: Any) -> str:
    """`code` in words from `mapping`, or the code itself when the mapping lacks it."""
    found = mapping.get(str(code))
    return str(found) if found is not None else str(code)

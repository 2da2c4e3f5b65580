"""CSV exports of the ledger for staff: fixed columns, one row per entry (a transfer's leg), the whole
range asked for (streamed from a server-side cursor, never one page), named by what they hold."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.http import StreamingHttpResponse

from ledger.models import Entry

# The order and names never change: a spreadsheet or script that reads one export reads every one.
ENTRY_COLUMNS = (
    "entry_id",
    "posted_at",
    "transfer_id",
    "transfer_kind",
    "chip_type",
    "account_id",
    "account_kind",
    "account_reference",
    "player",
    "amount",
    "balance_after",
    "table_id",
    "round_id",
    "tournament_id",
    "tournament_entry_id",
    "reverses_transfer_id",
    "posted_by",
    "reason",
)
_ENTRY_VALUES = (
    "id",
    "created_at",
    "transfer_id",
    "transfer__kind",
    "account__chip_type",
    "account_id",
    "account__kind",
    "account__reference",
    "account__user__username",
    "amount",
    "balance_after",
    "transfer__table_id",
    "transfer__round_id",
    "transfer__tournament_id",
    "transfer__entry_id",
    "transfer__reverses_id",
    "transfer__posted_by__username",
    "transfer__reason",
)
CHUNK = 2000


@dataclass(frozen=True)
class EntryFilter:
    player: str | None = None
    table: int | None = None
    round: int | None = None
    tournament: int | None = None
    kind: str | None = None
    start: datetime | None = None
    end: datetime | None = None

    def apply(self, entries: QuerySet[Entry]) -> QuerySet[Entry]:
        if self.player:
            entries = entries.filter(account__user__username=self.player)
        if self.table is not None:
            entries = entries.filter(transfer__table_id=self.table)
        if self.round is not None:
            entries = entries.filter(transfer__round_id=self.round)
        if self.tournament is not None:
            entries = entries.filter(transfer__tournament_id=self.tournament)
        if self.kind:
            entries = entries.filter(transfer__kind=self.kind)
        if self.start is not None:
            entries = entries.filter(created_at__gte=self.start)
        if self.end is not None:
            entries = entries.filter(created_at__lt=self.end)
        return entries

    def file_name(self) -> str:
        parts = ["ramino-ledger-entries"]
        for label, value in (
            ("player", self.player),
            ("table", self.table),
            ("round", self.round),
            ("tournament", self.tournament),
            ("kind", self.kind),
        ):
            if value not in (None, ""):
                parts.append(f"{label}-{value}")
        if self.start is not None:
            parts.append(f"from-{self.start:%Y%m%dT%H%M%S}")
        if self.end is not None:
            parts.append(f"to-{self.end:%Y%m%dT%H%M%S}")
        return "_".join(parts) + ".csv"


class _Echo:
    """A file whose write hands the line back: csv.writer then yields rows one at a time."""

    def write(self, value: str) -> str:
        return value


def entry_rows(entries: QuerySet[Entry]) -> Iterator[Sequence[Any]]:
    for row in entries.order_by("id").values_list(*_ENTRY_VALUES).iterator(chunk_size=CHUNK):
        yield [value.isoformat() if isinstance(value, datetime) else value for value in row]


def csv_lines(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    writer = csv.writer(_Echo(), lineterminator="\r\n")
    yield writer.writerow(columns)
    for row in rows:
        yield writer.writerow(["" if value is None else value for value in row])


# One row per player of the round, fixed columns.
SETTLEMENT_COLUMNS = (
    "round_id",
    "table_id",
    "round_number",
    "player",
    "seat",
    "stack",
    "score",
    "winner",
    "difference",
    "owed",
    "capped_at_own_stack",
    "payable",
    "paid",
    "kept",
    "received",
    "ledger_net",
)


def csv_response(lines: Iterable[str], file_name: str) -> StreamingHttpResponse:
    """An export's lines streamed as a download named `file_name`."""
    return StreamingHttpResponse(
        lines,
        content_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{file_name}"'},
    )

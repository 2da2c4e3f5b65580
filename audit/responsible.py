"""The responsible-play page (/audit/responsible/): players' breaks and exclusions and the verification record,
each with its history, filtered by player; whole CSV exports of both (docs/web.md "The staff audit pages").

Staff only, like every audit page. Applying a break or recording a verification is done in the admin (or the
staff API), where the services write each change to the admin's log; this page links there."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from audit import exports
from audit.views import staff_page
from responsible.breaks import selectors as breaks
from responsible.verification import selectors as verification

ROWS_PER_PAGE = 50
BREAK_COLUMNS = (
    "break_id",
    "player",
    "kind",
    "days",
    "indefinite",
    "starts_at",
    "ends_at",
    "in_force",
    "applied_by",
    "reason",
    "revocation_asked_at",
    "enforced_at",
)
VERIFICATION_COLUMNS = ("verification_id", "player", "status", "document_type", "by", "at", "note")


class ResponsibleFilterForm(forms.Form):
    player = forms.CharField(required=False, max_length=150, label=gettext_lazy("Username"))
    active = forms.BooleanField(required=False, label=gettext_lazy("Only breaks in force"))


def _cell(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _break_rows(rows: Any) -> Iterator[Sequence[Any]]:
    now = timezone.now()
    for row in rows.iterator(chunk_size=exports.CHUNK):
        in_force = row.starts_at <= now and (row.ends_at is None or row.ends_at > now)
        yield [
            _cell(v)
            for v in (
                row.pk,
                row.player.username,
                row.kind,
                row.days,
                row.indefinite,
                row.starts_at,
                row.ends_at,
                in_force,
                row.applied_by.username if row.applied_by_id else "",
                row.reason,
                row.revocation_asked_at,
                row.enforced_at,
            )
        ]


def _verification_rows(rows: Any) -> Iterator[Sequence[Any]]:
    for row in rows.iterator(chunk_size=exports.CHUNK):
        yield [
            _cell(v)
            for v in (
                row.pk,
                row.player.username,
                row.status,
                row.document_type,
                row.by.username,
                row.at,
                row.note,
            )
        ]


def _filters(request: HttpRequest) -> tuple[ResponsibleFilterForm, dict[str, Any]] | None:
    form = ResponsibleFilterForm(request.GET or None)
    if request.GET and not form.is_valid():
        return None
    return form, (form.cleaned_data if form.is_bound else {})


def _bad(request: HttpRequest, form: forms.Form) -> HttpResponse:
    return render(
        request, "audit/message.html", {"title": _("Bad request"), "errors": form.errors}, status=400
    )


@staff_page
@require_GET
def responsible(request: HttpRequest) -> HttpResponseBase:
    found = _filters(request)
    if found is None:
        return _bad(request, ResponsibleFilterForm(request.GET))
    form, chosen = found
    player = chosen.get("player") or None
    rows = breaks.break_list(player=player, active_only=bool(chosen.get("active")))
    page = Paginator(rows, ROWS_PER_PAGE).get_page(request.GET.get("page"))
    now = timezone.now()
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "audit/responsible.html",
        {
            "filters": form,
            "page": page,
            "rows": [
                {"row": row, "in_force": row.starts_at <= now and (row.ends_at is None or row.ends_at > now)}
                for row in page.object_list
            ],
            "verifications": list(verification.verification_list(player=player)[:ROWS_PER_PAGE]),
            "player": player,
            "query": query.urlencode(),
        },
    )


@staff_page
@require_GET
def breaks_csv(request: HttpRequest) -> HttpResponseBase:
    found = _filters(request)
    if found is None:
        return _bad(request, ResponsibleFilterForm(request.GET))
    _form, chosen = found
    player = chosen.get("player") or None
    rows = breaks.break_list(player=player, active_only=bool(chosen.get("active"))).order_by("pk")
    name = (
        "ramino-breaks"
        + (f"_player-{player}" if player else "")
        + ("_in-force" if chosen.get("active") else "")
    )
    return exports.csv_response(exports.csv_lines(BREAK_COLUMNS, _break_rows(rows)), f"{name}.csv")


@staff_page
@require_GET
def verifications_csv(request: HttpRequest) -> HttpResponseBase:
    found = _filters(request)
    if found is None:
        return _bad(request, ResponsibleFilterForm(request.GET))
    _form, chosen = found
    player = chosen.get("player") or None
    rows = verification.verification_list(player=player).order_by("pk")
    name = "ramino-verifications" + (f"_player-{player}" if player else "")
    return exports.csv_response(
        exports.csv_lines(VERIFICATION_COLUMNS, _verification_rows(rows)), f"{name}.csv"
    )

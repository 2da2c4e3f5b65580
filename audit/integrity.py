"""The integrity page (/audit/integrity/): the flags of the integrity job (docs/integrity.md) with their evidence
linked to the audit pages, filtered by status and kind, and a form per flag to set its status and note.

Staff only, like every audit page; a decision goes through `integrity.services.decide` (the admin's log
keeps it) and comes back to the same list."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.views import staff_page
from chat import selectors as chat_selectors
from integrity import selectors, services
from integrity.models import Flag, FlagKind, FlagStatus
from integrity.serializers import MAX_NOTE

FLAGS_PER_PAGE = 20
MAX_ID = 2**63 - 1

KIND_LABELS = {
    FlagKind.CHIP_DUMPING: gettext_lazy("Chip dumping"),
    FlagKind.SOFT_PLAY: gettext_lazy("Soft play"),
    FlagKind.FREQUENT_PAIR: gettext_lazy("Frequent pair"),
    FlagKind.SHARED_ADDRESS: gettext_lazy("Shared address"),
    FlagKind.GRANT_FARMING: gettext_lazy("Grant farming"),
}
STATUS_LABELS = {
    FlagStatus.OPEN: gettext_lazy("Open"),
    FlagStatus.DISMISSED: gettext_lazy("Dismissed"),
    FlagStatus.CONFIRMED: gettext_lazy("Confirmed"),
}
# The signals' numbers in the evidence, as people read them (the ids are shown as links instead).
EVIDENCE_LABELS = {
    "payer": gettext_lazy("Paid by"),
    "payee": gettext_lazy("Paid to"),
    "rounds_together": gettext_lazy("Rounds played together"),
    "paid": gettext_lazy("Chips paid"),
    "paid_back": gettext_lazy("Chips paid back"),
    "net": gettext_lazy("Net chips"),
    "one_sided": gettext_lazy("Share of the flow one way (net / total)"),
    "rounds_paid": gettext_lazy("Rounds paid"),
    "rounds_paid_back": gettext_lazy("Rounds paid back"),
    "z": gettext_lazy("Strength (z-score)"),
    "timed_out_rounds_paid": gettext_lazy("Rounds paid while timing out"),
    "offered": gettext_lazy("Discards offered to the partner"),
    "taken": gettext_lazy("Discards the partner took"),
    "expected": gettext_lazy("Discards taken at the usual rate"),
    "baseline_rate": gettext_lazy("Usual rate of taking a discard"),
    "ratio": gettext_lazy("Taken / usual"),
    "private_tables_together": gettext_lazy("Private tables together"),
    "private_tables": gettext_lazy("Private tables of each"),
    "share": gettext_lazy("Share of the smaller count"),
    "address": gettext_lazy("Network address"),
    "accounts": gettext_lazy("Accounts behind it"),
    "chips": gettext_lazy("Chips moved among them"),
    "chips_moved": gettext_lazy("Who paid whom"),
    "new_accounts": gettext_lazy("New accounts that paid"),
    "payers": gettext_lazy("Chips paid by each new account"),
    "grants": gettext_lazy("Chips the house gave each"),
}
LINKED = ("rounds", "transfers", "tables")


def _choices(labels: dict[Any, Any]) -> list[tuple[str, Any]]:
    return [(str(value), label) for value, label in labels.items()]


class FlagFilterForm(forms.Form):
    status = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Status"),
        choices=[("", gettext_lazy("any")), *_choices(STATUS_LABELS)],
    )
    kind = forms.ChoiceField(
        required=False,
        label=gettext_lazy("Kind"),
        choices=[("", gettext_lazy("any")), *_choices(KIND_LABELS)],
    )


class FlagDecisionForm(forms.Form):
    flag = forms.IntegerField(min_value=1, max_value=MAX_ID, widget=forms.HiddenInput)
    status = forms.ChoiceField(label=gettext_lazy("Status"), choices=_choices(STATUS_LABELS))
    note = forms.CharField(
        required=False,
        max_length=MAX_NOTE,
        label=gettext_lazy("Note"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def _row(flag: Flag) -> dict[str, Any]:
    evidence = flag.evidence or {}
    numbers = []
    for key, label in EVIDENCE_LABELS.items():
        if key not in evidence:
            continue
        value = evidence[key]
        if isinstance(value, dict):
            value = ", ".join(f"{name}: {count}" for name, count in sorted(value.items()))
        elif isinstance(value, list):
            value = ", ".join(f"{m.get('from')} → {m.get('to')}: {m.get('chips')}" for m in value)
        numbers.append((label, value))
    return {
        "flag": flag,
        "kind": KIND_LABELS.get(flag.kind, flag.kind),  # type: ignore[call-overload]
        "status": STATUS_LABELS.get(flag.status, flag.status),  # type: ignore[call-overload]
        "rounds": evidence.get("rounds", []),
        "transfers": evidence.get("transfers", []),
        "tables": evidence.get("tables", []),
        "numbers": numbers,
        # The players' chat messages that arrange chip transfers (docs/integrity.md "Chat evidence").
        "chat": chat_selectors.transfer_evidence(usernames=list(flag.players or []), limit=10),
        "form": FlagDecisionForm(
            initial={"flag": flag.pk, "status": flag.status, "note": flag.note}, auto_id=f"flag{flag.pk}-%s"
        ),
    }


@staff_page
def integrity(request: HttpRequest) -> HttpResponseBase:
    if request.method == "POST":
        return _decide(request)
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    filters = FlagFilterForm(request.GET or None)
    if request.GET and not filters.is_valid():
        return render(
            request, "audit/message.html", {"title": _("Bad request"), "errors": filters.errors}, status=400
        )
    chosen = filters.cleaned_data if filters.is_bound else {}
    flags = Paginator(
        selectors.flag_list(status=chosen.get("status") or None, kind=chosen.get("kind") or None),
        FLAGS_PER_PAGE,
    )
    page = flags.get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    saved = query.pop("saved", [""])[-1]
    return render(
        request,
        "audit/integrity.html",
        {
            "filters": filters if filters.is_bound else FlagFilterForm(),
            "page": page,
            "rows": [_row(flag) for flag in page.object_list],
            "query": query.urlencode(),
            "saved": _("Flag %(id)s saved.") % {"id": saved} if saved.isdigit() else "",
        },
    )


def _decide(request: HttpRequest) -> HttpResponse:
    form = FlagDecisionForm(request.POST)
    if not form.is_valid():
        return render(
            request, "audit/message.html", {"title": _("Bad request"), "errors": form.errors}, status=400
        )
    flag_id = form.cleaned_data["flag"]
    if not Flag.objects.filter(pk=flag_id).exists():
        message = _("No flag %(id)s.") % {"id": flag_id}
        return render(
            request, "audit/message.html", {"title": _("Not found"), "message": message}, status=404
        )
    services.decide(
        flag_id=flag_id,
        status=form.cleaned_data["status"],
        note=form.cleaned_data["note"],
        by=request.user,  # type: ignore[arg-type]
    )
    # Said on the page itself (inside its main landmark), not as a flash message above it.
    back = request.GET.copy()
    back["saved"] = str(flag_id)
    return HttpResponseRedirect(f"{reverse('audit:integrity')}?{back.urlencode()}#flag-{flag_id}")

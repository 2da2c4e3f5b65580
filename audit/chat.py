"""The chat moderation page (/audit/chat/, docs/operations.md "Chat moderation"): the newest reports with their
messages, and a form to time a player out of chat (length, reason, scope) through `chat.services.time_out`,
which records who gave it. A player's time-outs are on the audit player page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from api.errors import ServiceError
from audit.views import staff_page
from chat import selectors, services
from chat.models import MAX_TEXT, ReportReason, TimeOutScope

REPORTS_SHOWN = 50


class TimeOutForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Player"), max_length=150)
    seconds = forms.TypedChoiceField(
        label=gettext_lazy("Length"),
        coerce=int,
        choices=[
            (600, gettext_lazy("10 minutes")),
            (3600, gettext_lazy("1 hour")),
            (86400, gettext_lazy("24 hours")),
        ],
    )
    reason = forms.ChoiceField(label=gettext_lazy("Reason"), choices=ReportReason.choices)
    scope = forms.ChoiceField(label=gettext_lazy("Scope"), choices=TimeOutScope.choices)
    room = forms.CharField(label=gettext_lazy("Room (for a room's time-out)"), max_length=40, required=False)
    note = forms.CharField(label=gettext_lazy("Note"), max_length=MAX_TEXT, required=False)
    message = forms.IntegerField(min_value=1, max_value=2**63 - 1, required=False, widget=forms.HiddenInput)


@staff_page
def chat(request: HttpRequest) -> HttpResponseBase:
    if request.method == "POST":
        return _time_out(request)
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    rows = [
        {
            "report": report,
            "form": TimeOutForm(
                initial={
                    "username": report.message.author.get_username(),
                    "reason": report.reason,
                    "scope": TimeOutScope.ROOM,
                    "room": report.message.room.key,
                    "message": report.message_id,
                },
                auto_id=f"report{report.pk}-%s",
            ),
        }
        for report in selectors.reports(limit=REPORTS_SHOWN)
    ]
    saved = request.GET.get("saved", "")
    return render(
        request,
        "audit/chat.html",
        {
            "rows": rows,
            "form": TimeOutForm(auto_id="new-%s"),
            "saved": _("Time-out %(id)s given.") % {"id": saved} if saved.isdigit() else "",
        },
    )


def _time_out(request: HttpRequest) -> HttpResponse:
    form = TimeOutForm(request.POST)
    if not form.is_valid():
        return render(
            request, "audit/message.html", {"title": _("Bad request"), "errors": form.errors}, status=400
        )
    data: dict[str, Any] = form.cleaned_data
    try:
        given = services.time_out(
            asked=services.TimeOutAsked(
                username=data["username"],
                seconds=data["seconds"],
                reason=data["reason"],
                scope=data["scope"],
                room=data["room"] or None,
                note=data["note"],
                message_id=data["message"],
            ),
            by=request.user,
        )
    except ServiceError as refusal:
        return render(
            request,
            "audit/message.html",
            {"title": _("Bad request"), "message": refusal.localized_message()},
            status=refusal.http_status,
        )
    return HttpResponseRedirect(f"{reverse('audit:chat')}?saved={given.pk}")

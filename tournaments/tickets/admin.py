"""The Django admin's ticket grant (admins): the form `POST /tickets/grant/` takes, in words, posting through the same
service (`tickets.services.grant`); `key` is the form's idempotency key, fixed when the form is first shown, so a
double submit grants once. Mounted on the tournaments' admin (`TournamentAdmin.get_urls`)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledger.errors import LedgerError
from tournaments.errors import PlayError
from tournaments.tickets import services
from tournaments.tournament.models import Tournament, TournamentStatus, TournamentTemplate


class TicketGrantForm(forms.Form):
    username = forms.CharField(label=_("Player"), max_length=150)
    tournament = forms.ModelChoiceField(
        label=_("Tickets to tournament"),
        queryset=Tournament.objects.exclude(
            status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED]
        ),
        required=False,
    )
    template = forms.ModelChoiceField(
        label=_("Or to the next tournament of"), queryset=TournamentTemplate.objects.all(), required=False
    )
    count = forms.IntegerField(label=_("Tickets"), min_value=1, max_value=services.MAX_GRANT, initial=1)
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea(attrs={"rows": 2}))
    key = forms.CharField(max_length=64, widget=forms.HiddenInput)

    def clean_username(self) -> Any:
        user = get_user_model().objects.filter(username=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError(_("No user has this username."))
        return user

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if (cleaned.get("tournament") is None) == (cleaned.get("template") is None):
            raise forms.ValidationError(_("Choose one target: a tournament or a recurring tournament."))
        return cleaned


def grant_view(model_admin: admin.ModelAdmin, request: HttpRequest) -> HttpResponse:  # type: ignore[type-arg]
    """Grant tickets through `services.grant`, as the API's grant does."""
    if not request.user.is_superuser:
        raise PermissionDenied
    form = TicketGrantForm(request.POST or None, initial={"key": uuid.uuid4().hex})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            transfer = services.grant(
                user=data["username"],
                tournament_id=data["tournament"].pk if data["tournament"] else None,
                template_id=data["template"].pk if data["template"] else None,
                count=data["count"],
                reason=data["reason"],
                idempotency_key=f"{request.user.pk}:admin-form:{data['key']}",
                posted_by=request.user,
            )
        except (PlayError, LedgerError) as exc:
            form.add_error(None, exc.message)
        else:
            model_admin.message_user(
                request,
                _("Posted transfer #%(id)s: %(count)s ticket(s) to %(name)s.")
                % {"id": transfer.pk, "count": data["count"], "name": data["username"]},
                messages.SUCCESS,
            )
            return HttpResponseRedirect(reverse("admin:ledger_transfer_change", args=[transfer.pk]))
    context = {
        **model_admin.admin_site.each_context(request),
        "title": _("Grant tickets"),
        "form": form,
        "opts": model_admin.model._meta,
    }
    return TemplateResponse(request, "admin/tournaments/tournament/grant_tickets.html", context)

"""The audit pages' query parameters, checked: a bad one is a 400 page saying which, never a 500."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from audit.exports import EntryFilter
from ledger.models import TransferKind

MAX_ID = 2**63 - 1


class EntryFilterForm(forms.Form):
    player = forms.CharField(required=False, max_length=150)
    table = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    round = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    tournament = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    kind = forms.ChoiceField(label=_("Kind"), required=False, choices=[("", _("any")), *TransferKind.choices])
    start = forms.DateTimeField(required=False, label=_("from"))
    end = forms.DateTimeField(required=False, label=_("to"))

    def __init__(self, data: object = None, **kwargs: object) -> None:
        # `from` and `to` in the URL (as the ledger API names them); `from` is a Python keyword.
        if data is not None and hasattr(data, "get"):
            data = {
                **{key: data.get(key) for key in ("player", "table", "round", "tournament", "kind")},
                "start": data.get("from"),
                "end": data.get("to"),
            }
        super().__init__(data, **kwargs)  # type: ignore[arg-type]

    def entry_filter(self) -> EntryFilter:
        data = self.cleaned_data
        return EntryFilter(
            player=data.get("player") or None,
            table=data.get("table"),
            round=data.get("round"),
            tournament=data.get("tournament"),
            kind=data.get("kind") or None,
            start=data.get("start"),
            end=data.get("end"),
        )


class PlayerSearchForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


STATUS_NAMES = {
    "scheduled": _("scheduled"),
    "registering": _("registering"),
    "running": _("running"),
    "paused": _("paused"),
    "finished": _("finished"),
    "cancelled": _("cancelled"),
}
KIND_NAMES = {"quick": _("quick game"), "single": _("sit-and-go"), "multi": _("multi-table")}


class TournamentSearchForm(forms.Form):
    """The tournament list's search: a part of the name and a status (both optional)."""

    name = forms.CharField(label=_("Name"), required=False, max_length=100)
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("any")), *((value, label) for value, label in STATUS_NAMES.items())],
    )

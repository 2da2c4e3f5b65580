from django.urls import URLPattern, path, register_converter

from audit import chat, integrity, limits, responsible, views


class IdConverter:
    """A database id: digits that fit a bigint (a longer number is a 404, not a database error)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "dbid")

app_name = "audit"

urlpatterns: list[URLPattern] = [
    path("", views.index, name="index"),
    path("reconciliation/run/", views.run_reconciliation, name="run-reconciliation"),
    path("reconciliation/", views.reconciliation_section, name="reconciliation"),
    path("reconciliation/status.json", views.reconciliation_status, name="reconciliation-status"),
    path("players/<str:username>/", views.player, name="player"),
    path("players/<str:username>/limits.csv", limits.limits_csv, name="player-limits-csv"),
    path("rounds/<dbid:round_id>/", views.round_settlement, name="round"),
    path("rounds/<dbid:round_id>/settlement.csv", views.round_settlement_csv, name="round-csv"),
    path("tables/<dbid:table_id>/", views.table, name="table"),
    path("transfers/<dbid:transfer_id>/", views.transfer, name="transfer"),
    path("tournaments/<dbid:tournament_id>/", views.tournament, name="tournament"),
    path("entries.csv", views.entries_csv, name="entries-csv"),
    path("integrity/", integrity.integrity, name="integrity"),
    path("chat/", chat.chat, name="chat"),
    path("responsible/", responsible.responsible, name="responsible"),
    path("responsible/breaks.csv", responsible.breaks_csv, name="responsible-breaks-csv"),
    path(
        "responsible/verifications.csv", responsible.verifications_csv, name="responsible-verifications-csv"
    ),
]

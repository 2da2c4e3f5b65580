"""The staff and admin pages in people's words (issue 31, defect 20): every model, field and choice the admin
shows is named through gettext (Italian on an Italian page, never the code's names), the admin is titled for the
site, and the audit pages show statuses, kinds, games, triggers and tie rules in words, a transfer's computation
as a list and tables (never a Python dict) and the ledger's reasons in the page's language."""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib import admin
from django.db.models import Field
from django.test import Client
from django.utils import translation
from django.utils.functional import Promise

from audit.computation import computation_rows
from ledger.models import Transfer, TransferKind
from ledger.services import reconciliation
from ledger.words import reason_text
from tests.tournaments.live.helpers import settle_a_round_that_moves_chips
from tournaments.live.models import Seat, Table

PROJECT_APPS = {"tournaments", "ledger", "accounts", "integrity", "ratings"}


@pytest.fixture(autouse=True)
def _language_back() -> Iterator[None]:
    """An Italian request activates Italian in the test's thread (LocaleMiddleware): the tests after these run
    in the language they were in."""
    language = translation.get_language()
    yield
    translation.activate(language)


def _italian(user: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(user)
    return client


def _text(response: Any) -> str:
    """The page's words as a person reads them: no tags, no scripts, entities decoded, spaces collapsed."""
    assert response.status_code == 200, response.status_code
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_every_model_field_and_choice_the_admin_shows_is_translatable() -> None:
    """Names written for people and marked for translation (a lazy string), never Django's guess from the code."""
    untranslated: list[str] = []
    for model in admin.site._registry:
        if model._meta.app_label not in PROJECT_APPS:
            continue
        for name in ("verbose_name", "verbose_name_plural"):
            if not isinstance(getattr(model._meta, name), Promise):
                untranslated.append(f"{model.__name__}.{name}")
        for field in model._meta.get_fields():
            if not isinstance(field, Field) or field.auto_created or field.primary_key:
                continue
            if not isinstance(field.verbose_name, Promise):
                untranslated.append(f"{model.__name__}.{field.name}")
            for value, label in getattr(field, "flatchoices", None) or ():
                if not isinstance(label, Promise):
                    untranslated.append(f"{model.__name__}.{field.name}={value}")
    assert untranslated == []


def test_ledger_reasons_are_said_in_the_page_language_and_stored_as_written() -> None:
    with translation.override("it"):
        assert reason_text("cash-out at table 1") == "Incasso al tavolo 1"
        assert reason_text("round 3 of table 12") == "Mano 3 al tavolo 12"
        assert reason_text("daily top-up to 500") == "Ricarica giornaliera fino a 500 fiches"
        assert reason_text("moved from table 13 to table 12") == "Spostato dal tavolo 13 al tavolo 12"
        assert reason_text("prizes of tournament 4") == "Premi del torneo 4"
        assert (
            reason_text("a gift for the winner of May") == "a gift for the winner of May"
        )  # an admin's words
    with translation.override("en"):
        assert reason_text("cash-out at table 1") == "Cash-out at table 1"


def test_a_settlement_computation_reads_as_rows_and_tables_in_italian() -> None:
    computation = {
        "rule": "pcr",
        "pcr": 2,
        "scores": {"ann": 120, "bob": -15},
        "tie_rule": "single_winner",
        "winners": ["ann"],
        "payers": [
            {
                "player": "bob",
                "score": -15,
                "difference": 135,
                "owed": 270,
                "stack": 1000,
                "payable": 270,
                "capped_at_own_stack": False,
                "shares": [{"payee": "ann", "due": 270, "paid": 270, "capped_at_winner_stack": False}],
                "paid": 270,
                "kept": 0,
            }
        ],
        "transfers": [["bob", "ann", 1270]],
    }
    with translation.override("it"):
        rows = {row.key: row for row in computation_rows(computation)}
    assert rows["tie_rule"].label == "Regola del pareggio" and rows["tie_rule"].text == "un solo vincitore"
    assert rows["rule"].text == "punti per il PCR (fiches per punto)"
    assert rows["payers"].headers[0] == "Giocatore" and rows["payers"].rows[0][:4] == [
        "bob",
        "-15",
        "135",
        "270",
    ]
    assert rows["transfers"].rows == [["bob", "ann", "1.270"]]
    assert rows["scores"].rows == [["ann", "120"], ["bob", "-15"]]
    assert rows["winners"].text == "ann"


@pytest.mark.django_db
def test_the_italian_admin_names_the_site_its_models_columns_and_values(
    admin_user: Any, make_table: Any
) -> None:
    make_table()
    admin_page = _italian(admin_user)
    home = _text(admin_page.get("/admin/"))
    assert "Ramino — amministrazione" in home and "Amministrazione Django" not in home
    assert "Tavoli e tornei" in home and "Registro delle fiches" in home and "Tournaments" not in home
    assert (
        "Accesso all'API" in home and "Token API" in home and "Knox" not in home and "Auth tokens" not in home
    )
    assert "Attività periodiche" in home and "Periodic Tasks" not in home
    tokens = _text(admin_page.get("/admin/knox/authtoken/"))
    assert "Per creato il" in tokens and "Per scade il" in tokens and "expiry" not in tokens
    tables = _text(admin_page.get("/admin/tournaments/table/"))
    for words in ("Scegli tavolo da modificare", "Posti", "Buy-in minimo", "Stato", "aperto", "Ramino 500"):
        assert words in tables, words
    for code in ("Seats", "Min buy in", "table", " open ", "rummy500"):
        assert code not in tables, code
    tournaments = _text(admin_page.get("/admin/tournaments/tournament/"))
    assert "Scegli torneo da modificare" in tournaments and "tournament" not in tournaments
    assert "Per tipo" in tournaments and "partita rapida" in tournaments and "Max entrants" not in tournaments


@pytest.mark.django_db
def test_the_italian_audit_pages_say_statuses_rules_reasons_and_computations_in_words(
    dealt: dict[str, Any], client_for: Any, staff_user: Any, admin_user: Any
) -> None:
    round_ = settle_a_round_that_moves_chips(dealt, client_for)
    table = Table.objects.get(pk=dealt["game"].table_id)
    seat = Seat.objects.filter(table=table).order_by("number").first()
    assert seat is not None
    assert client_for(seat.player).post(f"/api/v1/tables/{table.pk}/leave/").status_code == 200
    run, _created = reconciliation.request_reconciliation(requested_by=staff_user)
    reconciliation.perform_reconciliation_run(run_id=run.pk)
    staff = _italian(staff_user)

    detail = _text(_italian(admin_user).get(f"/admin/ledger/reconciliationrun/{run.pk}/change/"))
    assert "richiesta dallo staff" in detail and "on_demand" not in detail, detail

    index = _text(staff.get("/audit/"))
    assert "richiesta dallo staff" in index and "finita" in index
    assert "on_demand" not in index and "finished" not in index

    table_page = _text(staff.get(f"/audit/tables/{table.pk}/"))
    assert "aperto" in table_page and "uscito" in table_page and "Ramino 500" in table_page
    assert " left " not in table_page and " open " not in table_page and "rummy500" not in table_page

    round_page = _text(staff.get(f"/audit/rounds/{round_.pk}/"))
    assert "single_winner" not in round_page and "tie_" not in round_page
    assert "un solo vincitore" in round_page or "pareggio" in round_page

    settlement = Transfer.objects.get(round_id=round_.pk, kind=TransferKind.SETTLEMENT)
    transfer_page = staff.get(f"/audit/transfers/{settlement.pk}/")
    words = _text(transfer_page)
    assert "Calcolo" in words and "Chi doveva quanto" in words and "Chi ha pagato chi" in words
    assert f"Mano {round_.number} al tavolo {table.pk}" in words
    assert "{'" not in words and "'rule'" not in words and "of table" not in words
    cash_out = Transfer.objects.filter(kind=TransferKind.CASH_OUT).first()
    assert cash_out is not None
    assert f"Incasso al tavolo {table.pk}" in _text(staff.get(f"/audit/transfers/{cash_out.pk}/"))
    player_page = _text(staff.get(f"/audit/players/{seat.player.get_username()}/"))
    assert f"Incasso al tavolo {table.pk}" in player_page and "cash-out at table" not in player_page

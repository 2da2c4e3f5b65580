"""Error envelopes speak the request's language (Accept-Language, or the language cookie): the same refusal in
Italian and in English has the same code, status and details, and a message in each language; every code the
API or the engine can answer has an Italian sentence (docs/web.md, "Languages")."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

# Importing the apps' error modules registers their codes' sentences.
import accounts.errors  # noqa: F401
import ledger.errors  # noqa: F401
import tournaments.errors  # noqa: F401
from api.errors import CODE_MESSAGES
from tests.api.conftest import World
from tests.clients import api_client
from tests.engine.test_architecture import _raised_codes
from tests.test_error_codes import ENUMS


def both(call: Any, *, same_details: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
    """The same request in Italian and in English: (Italian answer, English answer), each {status, error}.
    Details are the same, but for a validation error's field messages (text for people: translated too)."""
    answers = []
    for language in ("it", "en"):
        response = call(HTTP_ACCEPT_LANGUAGE=language)
        answers.append({"status": response.status_code, **response.json()["error"]})
    italian, english = answers
    assert italian["status"] == english["status"] >= 400
    assert italian["code"] == english["code"]
    if same_details:
        assert italian["details"] == english["details"]
    else:
        assert italian["details"].keys() == english["details"].keys()
    assert italian["message"] != english["message"]
    return italian, english


def test_a_refused_sit_has_one_code_and_two_languages(world: World) -> None:
    cid = world.client("cid")
    url = f"/api/v1/tables/{world.table.pk}/sit/"
    it, en = both(lambda **h: cid.post(url, {"buy_in": 10**9}, **h))
    assert it["code"] == "table.buy_in_out_of_range"
    low, high = world.table.min_buy_in, world.table.max_buy_in
    assert en["message"] == f"The buy-in must be between {low} and {high} chips."
    assert it["message"].startswith("Il buy-in deve essere tra ") and it["message"].endswith(" fiches.")


def test_italian_numbers_in_messages_are_grouped(world: World) -> None:
    from tournaments.live.models import Table

    Table.objects.filter(pk=world.table.pk).update(min_buy_in=1_000, max_buy_in=20_000)
    it, en = both(
        lambda **h: world.client("cid").post(f"/api/v1/tables/{world.table.pk}/sit/", {"buy_in": 1}, **h)
    )
    assert en["message"] == "The buy-in must be between 1000 and 20000 chips."
    assert it["message"] == "Il buy-in deve essere tra 1.000 e 20.000 fiches."


def test_an_engine_refusal_is_translated_by_its_code(world: World) -> None:
    game = world.game
    game.refresh_from_db()
    waiting = "bob" if game.turn_player == "ann" else "ann"
    url = f"/api/v1/games/{game.pk}/moves/"
    client = world.client(waiting)
    it, en = both(
        lambda **h: client.post(
            url, {"type": "draw", "source": "stock", "expected_version": game.version}, **h
        )
    )
    assert en["code"] == "turn.not_your_turn" and en["message"].startswith("It is ")
    assert it["message"] == "Non è il tuo turno."


@pytest.mark.parametrize(
    ("path", "code", "italian"),
    [
        ("/api/v1/tables/999999/", "table.not_found", "Tavolo inesistente."),
        (
            "/api/v1/tables/?page=zero",
            "request.invalid_parameter",
            "page deve essere un numero intero positivo.",
        ),
        ("/api/v1/tables/?format=xml", "request.invalid_parameter", None),
        ("/api/v1/no-such-path/", "not_found", "Non trovato."),
    ],
)
def test_reads_refused_in_both_languages(world: World, path: str, code: str, italian: str | None) -> None:
    it, _en = both(lambda **h: world.client("ann").get(path, **h))
    assert it["code"] == code
    if italian is not None:
        assert it["message"] == italian


def drf_italian_not_authenticated() -> str:
    """DRF's own Italian (it ships its catalog): its wording is DRF's, not ours."""
    from rest_framework.exceptions import NotAuthenticated

    with translation.override("it"):
        return str(NotAuthenticated.default_detail)


def test_drf_own_messages_follow_the_language(db: None) -> None:
    it, en = both(lambda **h: api_client().get("/api/v1/wallet/", **h))
    assert it["code"] == "auth.not_authenticated"
    assert en["message"] == "Authentication credentials were not provided."
    assert it["message"] == drf_italian_not_authenticated() and "autenticazione" in it["message"]


def test_a_refused_sign_in_is_in_italian(db: None) -> None:
    it, en = both(
        lambda **h: api_client().post(
            "/api/v1/auth/token/", {"username": "nobody", "password": "wrong-pass"}, **h
        ),
        same_details=False,
    )
    assert it["code"] == "request.invalid"
    assert (en["message"], it["message"]) == ("The request is invalid.", "La richiesta non è valida.")
    assert en["details"]["fields"]["non_field_errors"] == ["Unable to log in with provided credentials."]
    assert it["details"]["fields"]["non_field_errors"] == [
        "Accesso non riuscito: nome utente o password errati."
    ]


def test_the_request_guard_answers_in_the_request_language(db: None) -> None:
    long_path = "/api/v1/tables/?q=" + "x" * 9000
    it, en = both(lambda **h: api_client().get(long_path, **h))
    assert it["code"] == "request.uri_too_long"
    assert en["message"].startswith("The path and query string are longer than ")
    assert it["message"].startswith("Percorso e query string superano i ")


def test_the_language_cookie_chooses_when_no_header_is_sent(db: None) -> None:
    client = api_client()
    client.cookies["django_language"] = "it"
    response = client.get("/api/v1/wallet/")
    assert response.json()["error"]["message"] == drf_italian_not_authenticated()


def known_codes() -> set[str]:
    return {member.value for enum in ENUMS for member in enum} | _raised_codes()


def test_every_code_has_a_sentence_in_italian() -> None:
    codes = known_codes()
    assert len(codes) > 100
    missing = sorted(codes - set(CODE_MESSAGES))
    assert not missing, f"codes without a sentence (describe_codes): {missing}"
    with translation.override("it"):
        untranslated = sorted(c for c in codes if translation.gettext(CODE_MESSAGES[c]) == CODE_MESSAGES[c])
    assert not untranslated, f"codes whose sentence has no Italian: {untranslated}"


def test_a_message_the_catalog_lacks_falls_back_to_its_code_in_italian() -> None:
    from api.errors import ServiceError
    from ledger.errors import InvalidTransfer

    error = InvalidTransfer("Cannot open an account of kind 'x' (built at run time).")
    with translation.override("en"):
        assert error.localized_message() == "Cannot open an account of kind 'x' (built at run time)."
    with translation.override("it"):
        assert error.localized_message() == "Il trasferimento non è valido."
    with translation.override("it"):
        assert ServiceError().localized_message() == "La richiesta è stata rifiutata."

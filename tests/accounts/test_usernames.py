"""Usernames in any script: NFKC-normalised before they are checked and stored, unique once case-folded,
look-alike mixes of scripts refused with their own code, and sign-in normalising the same way."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from accounts import services, usernames
from accounts.errors import UsernameConfusable
from accounts.models import UsernameKey
from tests.clients import api_client

PASSWORD = "a-long-secret-9"
TAKEN = {"fields": {"username": ["This username is taken."]}}


def _register(username: str, **headers: Any) -> Any:
    return api_client().post(
        "/api/v1/auth/register/", {"username": username, "password": PASSWORD}, **headers
    )


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["niccolò", "Zoë", "Ελένη", "Мария", "李小龍", "josé_m.", "ana-2"])
def test_names_in_one_script_are_accepted_and_sign_in(name: str) -> None:
    answer = _register(name)
    assert answer.status_code == 201, answer.content
    assert answer.json()["username"] == name
    assert (
        api_client().post("/api/v1/auth/token/", {"username": name, "password": PASSWORD}).status_code == 200
    )


@pytest.mark.django_db
def test_the_name_is_stored_normalised_and_signs_in_however_it_is_composed() -> None:
    decomposed = unicodedata.normalize("NFD", "niccolò")  # o + combining grave accent, as some keyboards type
    assert decomposed != "niccolò"
    answer = _register(decomposed)
    assert answer.status_code == 201 and answer.json()["username"] == "niccolò"
    assert get_user_model().objects.filter(username="niccolò").exists()
    for typed in (decomposed, "niccolò", "ｎｉｃｃｏｌò"):  # and in full-width letters
        signed = api_client().post("/api/v1/auth/token/", {"username": typed, "password": PASSWORD})
        assert signed.status_code == 200, typed


@pytest.mark.django_db
@pytest.mark.parametrize(
    "variant", ["NICCOLÒ", "Niccolò", "ＮＩＣＣＯＬÒ", unicodedata.normalize("NFD", "NiCcOlÒ")]
)
def test_a_name_the_same_once_folded_is_taken(variant: str) -> None:
    assert _register("niccolò").status_code == 201
    again = _register(variant)
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "request.invalid"
    assert again.json()["error"]["details"] == TAKEN
    assert UsernameKey.objects.filter(folded="niccolò").count() == 1
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_folding_beyond_upper_case_is_one_name() -> None:
    """ "straße" and "STRASSE" differ to the database's UPPER; case folding makes them one name."""
    assert _register("straße").status_code == 201
    assert _register("STRASSE").json()["error"]["details"] == TAKEN


@pytest.mark.django_db
# A Cyrillic small a (U+0430) or capital dze (U+0405, like S) among Latin letters.
@pytest.mark.parametrize("name", ["p\u0430ypal", "\u0405tefano", "m\u0430rio_rossi"])
def test_look_alike_mixed_scripts_are_refused_in_both_languages(name: str) -> None:
    english = _register(name)
    assert english.status_code == 400
    assert english.json()["error"]["code"] == "username.confusable"
    assert english.json()["error"]["message"].startswith("This username mixes letters")
    italian = _register(name, HTTP_ACCEPT_LANGUAGE="it")
    assert italian.json()["error"]["code"] == "username.confusable"
    assert italian.json()["error"]["message"].startswith("Questo nome utente mescola lettere")
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["ab", "x" * 33, "has space", "semi;colon", "emoji🙂", ""])
def test_malformed_names_are_refused(name: str) -> None:
    answer = _register(name)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "request.invalid"
    assert "username" in answer.json()["error"]["details"]["fields"]
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
def test_the_malformed_message_is_italian_for_an_italian_player() -> None:
    answer = _register("ab", HTTP_ACCEPT_LANGUAGE="it")
    assert answer.json()["error"]["details"]["fields"]["username"] == [
        "Da 3 a 32 lettere o cifre (di qualsiasi alfabeto), oppure _ . -"
    ]


@pytest.mark.django_db
def test_the_service_refuses_what_the_serializer_would() -> None:
    with pytest.raises(UsernameConfusable):
        services.register_user(username="p\u0430ypal", password=PASSWORD)
    with pytest.raises(ValidationError):
        services.register_user(username="a b", password=PASSWORD)


@pytest.mark.django_db
def test_a_user_saved_any_other_way_keeps_its_folded_name() -> None:
    User = get_user_model()
    user = User.objects.create_user(username="Renée", password=PASSWORD)
    assert UsernameKey.objects.get(user=user).folded == "renée"
    user.username = "Renata"
    user.save()
    assert UsernameKey.objects.get(user=user).folded == "renata"
    user.save(update_fields=["last_login"])  # a login's save: no rename, no write
    assert UsernameKey.objects.count() == 1


# --- properties --------------------------------------------------------------------------------------

NAME_CHARS = st.characters(categories=["Lu", "Ll", "Lt", "Lo", "Nd", "Mn"]) | st.sampled_from("_.-ßſﬁＡｚ")
NAMES = st.text(alphabet=NAME_CHARS, min_size=1, max_size=40)
VARIANTS = st.sampled_from(
    [
        str.upper,
        str.lower,
        str.swapcase,
        str.casefold,
        lambda s: unicodedata.normalize("NFD", s),
        lambda s: unicodedata.normalize("NFKD", s.upper()),
    ]
)


@given(NAMES)
def test_normalisation_is_idempotent(name: str) -> None:
    once = usernames.normalise(name)
    assert usernames.normalise(once) == once
    assert usernames.is_well_formed(once) == usernames.is_well_formed(usernames.normalise(once))


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=NAMES, variant=VARIANTS)
def test_two_names_the_same_once_folded_cannot_both_register(first: str, variant: Any) -> None:
    second = variant(first)
    assume(usernames.folded(first) == usernames.folded(second))
    with transaction.atomic():  # each example on a clean slate
        try:
            services.register_user(username=first, password=PASSWORD)
        except (ValidationError, UsernameConfusable):
            assume(False)
        with pytest.raises((ValidationError, UsernameConfusable)):
            services.register_user(username=second, password=PASSWORD)
        assert UsernameKey.objects.filter(folded=usernames.folded(first)).count() == 1
        assert get_user_model().objects.count() == 1
        transaction.set_rollback(True)

"""Usernames in any script: NFKC-normalised before they are checked and stored, unique once case-folded,
look-alike mixes of scripts refused with their own code, and sign-in normalising the same way."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from accounts import selectors, services, usernames
from accounts.errors import (
    UsernameConfusable,
    UsernameInvisible,
    UsernameLookalike,
    UsernameReserved,
)
from accounts.models import UsernameKey
from tests.clients import api_client
from tests.factories import ADULT_BIRTH

PASSWORD = "a-long-secret-9"
TAKEN = {"fields": {"username": ["This username is taken."]}}


def _register(username: str, **headers: Any) -> Any:
    return api_client().post(
        "/api/v1/auth/register/",
        {"username": username, "password": PASSWORD, "date_of_birth": "1990-01-01"},
        **headers,
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
        services.register_user(username="p\u0430ypal", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    with pytest.raises(ValidationError):
        services.register_user(username="a b", password=PASSWORD, date_of_birth=ADULT_BIRTH)


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
    # Every refusal of a name: the first may be refused for any of them (hypothesis draws invisible and
    # reserved names too), and the second must be, whichever rule sees it first.
    refusals = (ValidationError, UsernameConfusable, UsernameInvisible, UsernameLookalike, UsernameReserved)
    with transaction.atomic():  # each example on a clean slate
        try:
            services.register_user(username=first, password=PASSWORD, date_of_birth=ADULT_BIRTH)
        except refusals:
            assume(False)
        with pytest.raises(refusals):
            services.register_user(username=second, password=PASSWORD, date_of_birth=ADULT_BIRTH)
        assert UsernameKey.objects.filter(folded=usernames.folded(first)).count() == 1
        assert get_user_model().objects.count() == 1
        transaction.set_rollback(True)


# --- look-alike, invisible and reserved names (Unicode TS #39) -------------------------------------------


@pytest.mark.sqlite
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("dee", "\u0501\u0435\u0435"),  # Cyrillic komi de and two Cyrillic ie, as the demo player dee
        ("cid", "\u0441\u0456\u0501"),  # Cyrillic es, Byelorussian i, komi de
        ("\u0501\u0435\u0435", "dee"),  # whichever came first
        ("lan", "Ian"),  # a capital I reads as a small l
        ("mario", "rnario"),  # r n reads as m
        ("bob0", "BOBO"),  # a zero reads as an O
    ],
)
def test_a_name_that_reads_as_a_registered_one_is_refused(first: str, second: str) -> None:
    assert _register(first).status_code == 201
    english = _register(second)
    assert english.status_code == 400, english.content
    assert english.json()["error"]["code"] == "username.lookalike"
    assert (
        english.json()["error"]["message"]
        == "This username reads the same as another player's; choose another."
    )
    italian = _register(second, HTTP_ACCEPT_LANGUAGE="it")
    assert italian.json()["error"]["code"] == "username.lookalike"
    assert italian.json()["error"]["message"].startswith("Questo nome utente si legge come")
    assert list(get_user_model().objects.values_list("username", flat=True)) == [first]


@pytest.mark.sqlite
@pytest.mark.django_db
def test_the_database_refuses_a_look_alike_saved_any_other_way() -> None:
    User = get_user_model()
    User.objects.create_user(username="dee", password=PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="\u0501\u0435\u0435", password=PASSWORD)
    assert UsernameKey.objects.get().skeleton == "dee"


@pytest.mark.django_db
def test_a_look_alike_that_loses_the_race_gets_the_same_error(monkeypatch: pytest.MonkeyPatch) -> None:
    get_user_model().objects.create_user(username="dee", password=PASSWORD)
    real = selectors.username_looks_taken
    checks: list[bool] = []

    def checked_too_early(*, username: str) -> bool:
        checks.append(real(username=username))
        return checks[-1] if len(checks) > 1 else False

    monkeypatch.setattr(selectors, "username_looks_taken", checked_too_early)
    with pytest.raises(UsernameLookalike):
        services.register_user(username="\u0501\u0435\u0435", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    assert checks == [True, True]  # the unique index refused the insert between the two checks
    assert get_user_model().objects.count() == 1


@pytest.mark.sqlite
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "characters"),
    [
        ("\u3164\u3164\u3164", ["U+3164", "U+1160"]),  # three Hangul fillers: an invisible name
        ("\u115f\u115f\u115f", ["U+115F"]),
        ("\u1160\u1160\u1160", ["U+1160"]),
        ("\uffa0\uffa0\uffa0", ["U+FFA0", "U+1160"]),
        ("ann\u200b", ["U+200B"]),  # a zero-width space
        ("a\u200dnna", ["U+200D"]),  # a zero-width joiner
        ("an\u00adna", ["U+00AD"]),  # a soft hyphen
        ("anna\ufe0f", ["U+FE0F"]),  # a variation selector
        ("\u2800\u2800\u2800", ["U+2800"]),  # the blank Braille pattern
    ],
)
def test_a_name_holding_characters_that_show_nothing_is_refused(name: str, characters: list[str]) -> None:
    answer = _register(name)
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "username.invisible"
    assert error["details"] == {"characters": characters}
    assert all(code in error["message"] for code in characters)
    italian = _register(name, HTTP_ACCEPT_LANGUAGE="it").json()["error"]
    assert italian["code"] == "username.invisible" and italian["message"].startswith(
        "Questo nome utente contiene"
    )
    assert not get_user_model().objects.exists()


@pytest.mark.sqlite
@pytest.mark.django_db
@pytest.mark.parametrize(
    "name",
    [
        "Guest_MZG9FK",
        "guest-x",
        "GUEST.ann",
        "Guest",
        "guest42",
        "GuestMZG9FK",
        "BOT.anna",
        "bot_bruno",
        "Bot-Carla",
        "bot7",
        "BotAnna",
        "bot",
    ],
)
def test_guest_and_bot_names_are_reserved_in_any_separator_or_case(name: str) -> None:
    answer = _register(name)
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["code"] == "username.reserved"
    italian = _register(name, HTTP_ACCEPT_LANGUAGE="it").json()["error"]
    assert italian["message"].startswith("I nomi che si leggono come")
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Botticelli", "guesthouse", "Bottega", "BOTANY", "robot_x", "Guestrin"])
def test_names_that_only_begin_with_the_letters_register(name: str) -> None:
    assert _register(name).status_code == 201


@pytest.mark.django_db
def test_guests_and_bots_are_still_made() -> None:
    """Their names are kept for them: made by the server, never registered."""
    from tournaments.practice.bots import bot_users

    guest = services.create_guest()
    assert usernames.is_guest_name(guest.get_username())
    assert [u.get_username() for u in bot_users(3)] == ["Bot Anna", "Bot Bruno", "Bot Carla"]
    assert UsernameKey.objects.filter(skeleton__isnull=False).count() == 4


def test_the_skeleton_is_ts39_s() -> None:
    """A few of confusables.txt's mappings (prototypes are their own skeleton)."""
    assert usernames.skeleton("\u0501\u0435\u0435") == "dee"
    assert usernames.skeleton("\u0441\u0456\u0501") == "cid"
    assert usernames.skeleton("p\u0430yp\u0430l") == "paypal"
    assert usernames.skeleton("m") == "rn" and usernames.skeleton("rn") == "rn"
    assert usernames.skeleton("1") == usernames.skeleton("I") == usernames.skeleton("l") == "l"
    assert usernames.skeleton("0") == "O"
    assert usernames.skeleton("\u0391\u03b2") == usernames.skeleton("A\u03b2")  # Greek capital alpha is an A
    assert usernames.skeleton("niccolò") == unicodedata.normalize("NFD", "niccolò")


@given(NAMES)
def test_the_look_alike_key_does_not_depend_on_how_the_name_was_composed(name: str) -> None:
    key = usernames.confusable_key(name)
    for form in ("NFD", "NFKD", "NFC"):
        assert usernames.confusable_key(unicodedata.normalize(form, name)) == key


# --- the admin saves names as registration does ---------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("taken", "typed"),
    [
        ("dee", "\u0501\u0435\u0435"),  # reads as dee
        ("Olga", "OLGA"),  # the same name in another case
    ],
)
def test_the_admins_user_forms_refuse_a_look_alike_or_taken_name_with_a_form_error(
    taken: str, typed: str
) -> None:
    """The Django admin's add and change forms refuse what `UsernameKey`'s unique indexes would: a page with
    the form's error, not the indexes' IntegrityError as a 500, and no user created or renamed."""
    from django.test import Client
    from django.urls import reverse

    services.register_user(username=taken, password=PASSWORD, date_of_birth=ADULT_BIRTH)
    other = services.register_user(username="someone", password=PASSWORD, date_of_birth=ADULT_BIRTH)
    root = get_user_model().objects.create_superuser("root", password=PASSWORD)
    admin = Client(raise_request_exception=False)
    admin.force_login(root)
    before = get_user_model().objects.count()

    added = admin.post(
        reverse("admin:auth_user_add"),
        {"username": typed, "password1": PASSWORD, "password2": PASSWORD, "usable_password": "true"},
    )
    assert added.status_code == 200, added.status_code
    assert added.context["adminform"].form.errors["username"]
    assert get_user_model().objects.count() == before

    change = reverse("admin:auth_user_change", args=[other.pk])
    form = admin.get(change).context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    data.update(username=typed, date_joined_0="2026-01-01", date_joined_1="00:00:00")
    data.pop("date_joined", None)
    data.pop("last_login", None)
    data.pop("groups", None)
    data.pop("user_permissions", None)
    changed = admin.post(change, data)
    assert changed.status_code == 200, changed.status_code
    assert changed.context["adminform"].form.errors["username"]
    other.refresh_from_db()
    assert other.username == "someone"

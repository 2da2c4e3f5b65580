"""The admin's table and tournament forms never show a database constraint by its name: every check constraint of
`Table` and `Tournament` has a sentence for people on the field it concerns, in English and Italian, and a form
that violates one shows that sentence (or its field's own check) and saves nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.db.models import CheckConstraint
from django.test import Client
from django.utils import translation

from tournaments.live.admin import TABLE_CONSTRAINTS, TableForm
from tournaments.live.models import Table
from tournaments.tournament.admin_forms import FORMS, TOURNAMENT_CONSTRAINTS
from tournaments.tournament.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

TABLE_ADD = "/admin/tournaments/table/add/"
TOURNAMENT_ADD = "/admin/tournaments/tournament/add/"
TABLE = {
    "game": "rummy500",
    "seats": "4",
    "pcr": "2",
    "multiplier": "1",
    "min_buy_in": "100",
    "max_buy_in": "1000",
}
SINGLE = {
    "name": "Friday sit-and-go",
    "game": "rummy500",
    "buy_in": "100",
    "fee": "10",
    "guarantee": "0",
    "max_entrants": "3",
    "min_entrants": "2",
    "target_score": "200",
    "tiebreak_rounds": "5",
    "multiplier": "1",
    "payouts": "70, 30",
    "entries-TOTAL_FORMS": "0",
    "entries-INITIAL_FORMS": "0",
}


def _check_constraints(model: Any) -> list[str]:
    return [c.name for c in model._meta.constraints if isinstance(c, CheckConstraint)]


@pytest.mark.parametrize(
    ("model", "sentences"), [(Table, TABLE_CONSTRAINTS), (Tournament, TOURNAMENT_CONSTRAINTS)]
)
def test_every_check_constraint_has_a_sentence_in_both_languages(
    model: type, sentences: dict[str, Any]
) -> None:
    assert set(_check_constraints(model)) == set(sentences)
    for name, (_fields, message) in sentences.items():
        with translation.override("en"):
            english = str(message)
        assert english.endswith(".") and name not in english and "_" not in english
        with translation.override("it"):
            assert str(message) != english, f"{name} has no Italian sentence"


def _violating(form: Any, changes: dict[str, Any]) -> Any:
    """A valid form whose instance is then given values the constraint refuses."""
    assert form.is_valid(), form.errors
    for name, value in changes.items():
        setattr(form.instance, name, value)
    return form.instance


TABLE_CASES = [
    ("table_pcr_positive", {"pcr": 0}, "pcr"),
    ("table_multiplier_positive", {"multiplier": 0}, "multiplier"),
    ("table_seats_at_least_two", {"seats": 1}, "seats"),
    ("table_min_buy_in_positive", {"min_buy_in": 0}, "min_buy_in"),
    ("table_buy_in_range", {"max_buy_in": 50}, "max_buy_in"),
    ("table_private_has_code", {"private": True, "code": None}, "private"),
    ("table_error_has_reason", {"status": "error", "error": ""}, None),
    (
        "table_practice_is_its_own_kind",
        {"practice": True, "private": True, "code": "ABCDEFGH", "tournament": None},
        "private",
    ),
]


@pytest.mark.parametrize(("constraint", "changes", "field"), TABLE_CASES)
def test_a_violated_table_constraint_is_its_sentence_on_its_field(
    constraint: str, changes: dict[str, Any], field: str | None
) -> None:
    form = TableForm(data=TABLE)
    instance = _violating(form, changes)
    form.ALWAYS_CHECKED = tuple(changes)  # as if the form set these fields too
    form.check_constraints(instance)
    key = field or "__all__"
    assert [str(m) for m in form.errors[key]] == [str(TABLE_CONSTRAINTS[constraint][1])]


TOURNAMENT_CASES = [
    ("tournament_kind_known", {"kind": "poker"}, None),
    ("tournament_status_known", {"status": "lost"}, None),
    ("tournament_chips_non_negative", {"fee": -1}, "fee"),
    ("tournament_entrant_range", {"max_entrants": 2, "min_entrants": 3}, "max_entrants"),
    ("tournament_one_table_at_most_four", {"max_entrants": 5}, "max_entrants"),
    ("tournament_single_has_target", {"target_score": None}, "target_score"),
    ("tournament_tiebreaks_within_cap", {"tiebreaks_played": 6}, "tiebreak_rounds"),
    ("tournament_tiebreak_has_first_round", {"stage": "tiebreak", "tiebreak_from_round": None}, None),
    (
        "tournament_finished_at_only_when_over",
        {"status": "running", "finished_at": datetime(2026, 1, 1, tzinfo=UTC)},
        None,
    ),
]


@pytest.mark.parametrize(("constraint", "changes", "field"), TOURNAMENT_CASES)
def test_a_violated_tournament_constraint_is_its_sentence_on_its_field(
    constraint: str, changes: dict[str, Any], field: str | None
) -> None:
    form = FORMS["single"](data=SINGLE)
    instance = _violating(form, changes)
    form.ALWAYS_CHECKED = ("kind", *changes)
    form.check_constraints(instance)
    key = field or "__all__"
    assert [str(m) for m in form.errors[key]] == [str(TOURNAMENT_CONSTRAINTS[constraint][1])]


@pytest.mark.parametrize(
    ("kind", "data", "changes", "constraint", "field"),
    [
        ("quick", {**SINGLE, "rounds": "2"}, {"rounds": None}, "tournament_quick_has_rounds", "rounds"),
        (
            "multi",
            {
                **SINGLE,
                "max_entrants": "100",
                "starting_stack": "1000",
                "pcr_schedule": "1, 2",
                "rounds_per_level": "2",
                "starts_at": "2099-01-01 20:00:00",
            },
            {"starting_stack": None},
            "tournament_multi_has_stack_levels_and_start",
            "starting_stack",
        ),
    ],
)
def test_each_kinds_constraint_is_its_sentence_on_its_field(
    kind: str, data: dict[str, str], changes: dict[str, Any], constraint: str, field: str
) -> None:
    form = FORMS[kind](data=data)
    instance = _violating(form, changes)
    form.check_constraints(instance)
    assert [str(m) for m in form.errors[field]] == [str(TOURNAMENT_CONSTRAINTS[constraint][1])]


def _admin(admin_user: Any, language: str = "en") -> Client:
    browser = Client(headers={"accept-language": language})
    browser.force_login(admin_user)
    return browser


def _refused(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 200  # the form again: not saved, not a 500
    page = response.content.decode()
    assert "is violated" not in page and "viola" not in page.lower()
    assert not any(name in page for name in (*TABLE_CONSTRAINTS, *TOURNAMENT_CONSTRAINTS))
    return {
        field: [str(m) for m in messages]
        for field, messages in response.context["adminform"].form.errors.items()
    }


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"pcr": "0"}, "pcr"),
        ({"multiplier": "0"}, "multiplier"),
        ({"seats": "1"}, "seats"),
        ({"min_buy_in": "0"}, "min_buy_in"),
        ({"min_buy_in": "500", "max_buy_in": "100"}, "max_buy_in"),
    ],
)
def test_the_table_form_answers_each_constraint_with_a_sentence(
    admin_user: Any, changes: dict[str, str], field: str
) -> None:
    errors = _refused(_admin(admin_user).post(TABLE_ADD, {**TABLE, **changes}))
    assert field in errors and all(m.endswith(".") for m in errors[field]), errors
    assert not Table.objects.exists()


def test_the_buy_in_range_in_both_languages(admin_user: Any) -> None:
    bad = {**TABLE, "min_buy_in": "500", "max_buy_in": "100"}
    english = _refused(_admin(admin_user).post(TABLE_ADD, bad))
    assert english == {"max_buy_in": ["The largest buy-in cannot be below the smallest."]}
    italian = _refused(_admin(admin_user, "it").post(TABLE_ADD, bad))
    with translation.override("it"):
        assert italian == {"max_buy_in": [str(TABLE_CONSTRAINTS["table_buy_in_range"][1])]}
    assert italian != english


@pytest.mark.parametrize(
    ("kind", "changes", "field"),
    [
        ("single", {"buy_in": "-1"}, "buy_in"),
        ("single", {"fee": "-5"}, "fee"),
        ("single", {"min_entrants": "4", "max_entrants": "3"}, "max_entrants"),
        ("single", {"max_entrants": "5"}, "max_entrants"),
        ("single", {"target_score": ""}, "target_score"),
        ("quick", {"rounds": "4"}, "rounds"),
        ("quick", {"rounds": ""}, "rounds"),
        ("multi", {"max_entrants": "100", "pcr_schedule": "1, 2", "rounds_per_level": "2"}, "starting_stack"),
    ],
)
def test_the_tournament_forms_answer_each_constraint_with_a_sentence(
    admin_user: Any, kind: str, changes: dict[str, str], field: str
) -> None:
    errors = _refused(_admin(admin_user).post(f"{TOURNAMENT_ADD}?kind={kind}", {**SINGLE, **changes}))
    assert field in errors and all(m.endswith(".") for m in errors[field]), errors
    assert not Tournament.objects.exists()

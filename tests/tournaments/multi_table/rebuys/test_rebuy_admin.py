"""The admin's multi-table form with the rebuy, add-on and knockout options, in words (docs/rules.md "Rebuys and
the add-on", "Progressive knockout")."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tournaments.tournament.admin_forms import FORMS
from tournaments.tournament.models import Tournament

pytestmark = pytest.mark.django_db

MULTI = {
    "name": "Rebuy Sunday",
    "game": "rummy500",
    "buy_in": "100",
    "fee": "10",
    "guarantee": "0",
    "max_entrants": "100",
    "min_entrants": "2",
    "multiplier": "1",
    "payouts": "70, 30",
    "starting_stack": "1000",
    "pcr_schedule": "1, 2, 3",
    "rounds_per_level": "2",
    "starts_at": "2099-01-01 20:00:00",
    "entries-TOTAL_FORMS": "0",
    "entries-INITIAL_FORMS": "0",
}
FORMAT = {
    "rebuy_levels": "2",
    "rebuy_cost": "100",
    "rebuy_fee": "10",
    "max_rebuys": "3",
    "addon_cost": "100",
    "addon_fee": "10",
    "addon_chips": "1500",
    "bounty_share": "50",
}


def test_the_multi_form_takes_the_format_options_and_leaves_blanks_to_the_defaults() -> None:
    form = FORMS["multi"](data={**MULTI, **FORMAT})
    assert form.is_valid(), form.errors
    settings = form.checked_settings
    assert (
        settings["rebuy_levels"] == 2 and settings["bounty_share"] == 50 and settings["addon_chips"] == 1500
    )
    assert (
        settings["rebuy_chips"] is None and settings["addon_seconds"] == 60
    )  # blank: the starting chips, 60 s
    for name in ("rebuy_levels", "bounty_share", "addon_chips"):
        assert name in form.fields and form.fields[name].label


@pytest.mark.parametrize("language", ["en", "it"])
def test_rebuy_amounts_without_a_rebuy_period_are_refused_in_words(language: str) -> None:
    with translation.override(language):
        form = FORMS["multi"](data={**MULTI, "rebuy_cost": "100"})
        assert not form.is_valid()
        message = str(form.errors["rebuy_cost"][0])
    expected = {
        "en": "Set “Rebuys until level” first: rebuy and add-on amounts need a rebuy period.",
        "it": "Imposta prima “Rebuy fino al livello”: gli importi di rebuy e add-on richiedono un periodo di rebuy.",
    }
    assert message == expected[language]


def test_an_admin_adds_a_knockout_rebuy_tournament_through_the_admin(admin_user: Any) -> None:
    browser = Client()
    browser.force_login(admin_user)
    page = browser.get("/admin/tournaments/tournament/add/?kind=multi")
    assert page.status_code == 200 and "rebuy_levels" in page.content.decode()
    posted = {k: v for k, v in MULTI.items() if k != "starts_at"}
    posted.update(starts_at_0="2099-01-01", starts_at_1="20:00:00", registration_opens_at_0="")
    posted.update(registration_opens_at_1="", **FORMAT)
    answer = browser.post("/admin/tournaments/tournament/add/?kind=multi", posted)
    assert answer.status_code == 302, answer.context["adminform"].form.errors if answer.context else ""
    made = Tournament.objects.get(name="Rebuy Sunday")
    assert (made.rebuy_levels, made.rebuy_cost, made.max_rebuys, made.bounty_share) == (2, 100, 3, 50)

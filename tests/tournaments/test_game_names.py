"""The games' names for people come from one place: each family declares them in the engine (a preset's title,
the family's title), and the landing page, the admin, the audit pages and the ratings read them through
`tournaments.games`, translated through the catalogs."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.utils import translation

from play import views as play_views
from ratings.models import Family
from tournaments import admin_fields
from tournaments.engine import rules
from tournaments.engine.families import FAMILIES
from tournaments.engine.rules import _REGISTRY, FamilyOptions, PresetSpec, Ruleset, register_preset
from tournaments.games import GAME_NAMES, family_names


def test_every_preset_has_one_name_everywhere() -> None:
    assert list(GAME_NAMES) == list(rules.implemented_presets())
    assert all(rules.preset_title(p) != p for p in GAME_NAMES), "a preset without its family's title"
    assert admin_fields.game_choices() == list(GAME_NAMES.items())
    assert play_views.GAME_NAMES is GAME_NAMES  # type: ignore[attr-defined]
    assert str(GAME_NAMES["wrotham"]) == "Wrotham"  # the admin's "Wrotham Rummy" and the site's agree now


def test_the_ratings_keep_one_rating_per_family_the_engine_declares() -> None:
    assert list(Family.values) == list(FAMILIES)
    assert [str(label) for label in Family.labels] == [family.title for family in FAMILIES.values()]
    assert {rules.preset_family(p) for p in GAME_NAMES} == set(FAMILIES)


@pytest.mark.parametrize("preset", rules.implemented_presets())
def test_every_name_is_in_the_italian_catalog(preset: str) -> None:
    """A proper name may read the same in Italian ("Wrotham", "Rommé"), but each has its catalog entry."""
    english = [rules.preset_title(preset), *(family.title for family in FAMILIES.values())]
    catalog = translation.trans_real.translation("it")._catalog  # type: ignore[attr-defined]
    assert [text for text in english if text not in catalog] == []
    with translation.override("it"):
        assert str(GAME_NAMES[preset]) == catalog[rules.preset_title(preset)]


def test_a_family_registered_later_is_named_where_the_names_are_read() -> None:
    """A toy family takes the `board` preset's place for this test: its names reach the admin's choices and the
    ratings' family names through the engine alone (the rating columns' choices take a migration)."""

    class Toy:
        name = "toy_tiles"
        title = "Toy tiles"

    real = _REGISTRY["board"]
    base = replace(Ruleset.preset("rummy500"), name="board", family="toy_tiles", own=FamilyOptions())
    register_preset(PresetSpec(base, {}, title="Toy board"))
    FAMILIES["toy_tiles"] = Toy()  # type: ignore[assignment]
    try:
        assert ("board", "Toy board") in [(p, str(n)) for p, n in admin_fields.game_choices()]
        assert str(family_names()["toy_tiles"]) == "Toy tiles"
        assert rules.preset_family("board") == "toy_tiles"
    finally:
        del FAMILIES["toy_tiles"]
        register_preset(real)
    assert str(dict(admin_fields.game_choices())["board"]) == "Board Rummy"

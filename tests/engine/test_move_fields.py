"""The move types and their fields are defined once, by the families (families.move_fields): every field a
family's move takes has a schema, and the API's reading of those schemas agrees with JSON Schema's."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft4Validator

from tournaments.engine.families import FAMILIES, move_fields
from tournaments.engine.move_fields import FIELD_SCHEMAS, check_field


def test_every_family_move_and_field_is_listed_once() -> None:
    listed = move_fields()
    for family in FAMILIES.values():
        for mtype, fields in family.move_fields.items():
            assert "type" in fields, (family.name, mtype)
            assert fields <= listed[mtype], (family.name, mtype)
            assert fields - {"type"} <= set(FIELD_SCHEMAS), (family.name, mtype)
    assert set(listed) == {t for f in FAMILIES.values() for t in f.move_fields}


def test_a_type_two_families_share_allows_what_either_allows(monkeypatch: Any) -> None:
    class Other:
        name = "other"
        move_fields = {"draw": frozenset({"type", "groups"}), "close": frozenset({"type", "discard"})}

    monkeypatch.setitem(FAMILIES, "other", Other())
    listed = move_fields()
    assert listed["draw"] == frozenset({"type", "source", "card", "index", "groups"})
    assert list(listed)[-1] == "close"


def test_a_field_without_a_schema_is_refused(monkeypatch: Any) -> None:
    class Tiles:
        name = "tiles"
        move_fields = {"place": frozenset({"type", "tiles"})}

    monkeypatch.setitem(FAMILIES, "tiles", Tiles())
    with pytest.raises(ValueError, match="tiles's move 'place' takes \\['tiles'\\]"):
        move_fields()


# JSON values, with the edge cases of the schemas: bools (no integers), long strings, nested lists.
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-5, max_value=1100)
    | st.sampled_from(["stock", "discard", "7H", "JK:7H", "m1", "", "x" * 8, "x" * 9, "y" * 64, "y" * 65])
    | st.text(max_size=4)
)
_json = (
    _scalars
    | st.lists(_scalars | st.lists(_scalars, max_size=3), max_size=4)
    | st.dictionaries(st.text(max_size=3), _scalars, max_size=2)
)


@settings(max_examples=400)
@given(field=st.sampled_from(sorted(FIELD_SCHEMAS)), value=_json)
def test_check_field_reads_the_schemas_as_json_schema_does(field: str, value: object) -> None:
    schema = FIELD_SCHEMAS[field]
    assert check_field(schema, value) is Draft4Validator(dict(schema)).is_valid(value), (field, value)


def test_long_lists_are_refused() -> None:
    assert check_field(FIELD_SCHEMAS["cards"], ["7H"] * 200)
    assert not check_field(FIELD_SCHEMAS["cards"], ["7H"] * 201)
    assert not check_field(FIELD_SCHEMAS["melds"], [["7H"]] * 51)
    assert Draft4Validator(dict(FIELD_SCHEMAS["melds"])).is_valid([["7H"]] * 50)

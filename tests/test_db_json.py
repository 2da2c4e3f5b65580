"""database/json.py: orjson where it reads and writes what the standard library does."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from database import json as db_json

INT64 = st.integers(min_value=-(2**63), max_value=2**63 - 1)
json_values = st.recursive(
    st.none() | st.booleans() | INT64 | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5),
    max_leaves=30,
)


@given(json_values)
def test_round_trip_equals_the_standard_librarys(value: Any) -> None:
    text = db_json.dumps(value)
    assert db_json.loads(text) == json.loads(json.dumps(value))
    assert json.loads(text) == json.loads(json.dumps(value))


def test_integer_keys_become_strings_as_with_json() -> None:
    assert db_json.loads(db_json.dumps({1: "a", "b": [1, 2]})) == {"1": "a", "b": [1, 2]}


def test_integers_beyond_64_bits_are_written_by_json() -> None:
    big = 2**80
    assert json.loads(db_json.dumps({"big": big})) == {"big": big}
    # (Read back by orjson they would be floats: `loads` is documented for columns that cannot hold them.)


def test_what_json_refuses_is_still_refused() -> None:
    with pytest.raises(TypeError):
        db_json.dumps({"at": datetime.datetime(2026, 11, 29, tzinfo=datetime.UTC)})
    with pytest.raises(TypeError):
        db_json.dumps({1, 2})


def test_text_json_cannot_parse_is_an_error_as_with_json() -> None:
    with pytest.raises(json.JSONDecodeError):
        db_json.loads("{not json")
    assert db_json.loads("NaN") != db_json.loads("NaN")  # json's reading of NaN, kept

"""What a table may be (issue 9, item 3): every option of every implemented preset and every clock option has a
type and a range, checked at creation; any value of any JSON type is accepted exactly when it is in range, never
a 500; and a table created with accepted options deals a round."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from tournaments import engine
from tournaments.errors import InvalidRequest
from tournaments.live.models import Game, GameStatus, Round, Table
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import settings as table_settings

pytestmark = pytest.mark.django_db

# The documented ranges (docs/rules.md, docs/tables.md), written out here rather than read from the code: the
# test is the contract. Kind "bool", "int" or "int?" (an integer or null) with its inclusive range, or
# "choice" with its strings.
Spec = tuple[str, int, int] | tuple[str, tuple[str, ...]]
RULE_OPTIONS: dict[str, Spec] = {
    "hand_size_two_players": ("int", 3, 20),
    "top_discard_must_be_used": ("bool", 0, 0),
    "final_discard_required": ("bool", 0, 0),
    "ace_high": ("bool", 0, 0),
    "round_the_corner": ("bool", 0, 0),
    "joker_swap": ("bool", 0, 0),
    "swapped_joker_must_be_melded": ("bool", 0, 0),
    "low_cards_five": ("bool", 0, 0),
    "target_score": ("int?", 1, 1_000_000),
    "rounds": ("int?", 1, 1000),
    "stall_turns": ("int?", 1, 10_000),
    "rummy_calls": ("bool", 0, 0),
    "rummy_in_the_pile": ("bool", 0, 0),
    "rummy_call_seconds": ("int", 1, 600),
    "extra_jokers": ("bool", 0, 0),  # Board Rummy (docs/rules.md, "Board Rummy")
    # the Basic family (docs/rules.md "Basic Rummy family")
    "multiple_melds_per_turn": ("bool", 0, 0),
    "going_rummy": ("choice", ("double", "plus10", "off")),
    "lay_off_requires_own_meld": ("bool", 0, 0),
    "restock": ("choice", ("shuffle", "turn", "none")),
    "restock_limit": ("int", 0, 100),
    "scoring": ("choice", ("winner", "penalty")),
    "joker_penalty": ("int", 0, 100),
    "opening_minimum": ("int", 0, 200),
}
# turn_seconds' floor is 5 s; the test settings lower it to 1 (RAMINO_MIN_TURN_SECONDS) for the worker's tests.
CLOCK_OPTIONS: dict[str, Spec] = {
    "turn_seconds": ("int", 1, 3600),
    "time_bank_seconds": ("int", 0, 3600),
    "max_timeouts": ("int", 1, 20),
    "max_timeouts_per_round": ("int", 1, 100),
    "reconnect_seconds": ("int", 0, 600),
}


def implemented_presets() -> list[str]:
    names = []
    for name in engine.PRESETS:
        try:
            engine.Ruleset.preset(name)
        except engine.RulesetError as exc:
            assert exc.code == "ruleset.not_implemented"
            continue
        names.append(name)
    return names


PRESETS = implemented_presets()


def specs(preset: str) -> dict[str, Spec]:
    return {**{k: RULE_OPTIONS[k] for k in engine.Ruleset.preset(preset).option_values()}, **CLOCK_OPTIONS}


def test_every_option_of_every_preset_has_a_documented_range() -> None:
    assert PRESETS
    for preset in PRESETS:
        assert set(engine.Ruleset.preset(preset).option_values()) <= set(RULE_OPTIONS), preset


def in_range(spec: Spec, value: Any) -> bool:
    kind, low, high = spec[0], spec[1], spec[-1]
    if isinstance(low, tuple):
        return isinstance(value, str) and value in low
    assert isinstance(high, int)
    if kind == "bool":
        return isinstance(value, bool)
    if value is None:
        return kind == "int?"
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def accepted(preset: str, options: dict[str, Any]) -> bool:
    """The oracle: every option known and in range, and the combinations the rules require."""
    known = specs(preset)
    if any(key not in known or not in_range(known[key], value) for key, value in options.items()):
        return False
    rules = {**engine.Ruleset.preset(preset).option_values(), **options}
    if rules["target_score"] is None and rules["rounds"] is None:
        return False
    if rules.get("swapped_joker_must_be_melded") and not rules.get("joker_swap"):
        return False
    return not (
        rules.get("rummy_in_the_pile") and not rules.get("rummy_calls")
    )  # not Board Rummy's nor Basic's


# Text without NUL: the request boundary refuses a NUL anywhere in a body (request.malformed, before the options
# are read; tests/api/test_boundary.py), so a NUL would test the boundary here, not the options.
_CHARS = st.characters(exclude_characters="\x00")

# Anything JSON can carry, huge and odd numbers included (NaN and infinities as the strings a client could
# send: JSON has no literal for them).
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e308, -1e308, 1e12, 0.5, 30.0, 0.0, -0.0, 5e-324])
    | st.sampled_from(["NaN", "nan", "inf", "-Infinity", "1e308", "30", "", "true"])
    | st.text(_CHARS, max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(_CHARS, max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, drawn in proportion to its weight."""
    table = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(min_value=0, max_value=len(table) - 1).flatmap(lambda i: table[i])


def option_value(spec: Spec) -> st.SearchStrategy[Any]:
    """Mostly values in the range, then values at and around its edges, then any JSON value."""
    kind, low, high = spec[0], spec[1], spec[-1]
    if isinstance(low, tuple):
        valid_choice = st.sampled_from(low)
        return weighted(
            (8, valid_choice), (1, st.sampled_from(["", "DOUBLE", low[0] + " ", 1, None])), (1, json_values)
        )
    assert isinstance(high, int)
    if kind == "bool":
        valid: st.SearchStrategy[Any] = st.booleans()
        near: st.SearchStrategy[Any] = st.sampled_from([0, 1, "true", None])
    else:
        valid = st.integers(min_value=low, max_value=high) | (st.none() if kind == "int?" else st.nothing())
        near = st.sampled_from([low - 1, low, high, high + 1, -low, None, float(low)])
    return weighted((8, valid), (1, near), (1, json_values))


@st.composite
def table_options(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    preset = draw(st.sampled_from(PRESETS))
    known = specs(preset)
    names = draw(
        st.lists(st.sampled_from(sorted(known)), unique=True, max_size=draw(st.sampled_from([3, 6, 18])))
    )
    options = {name: draw(option_value(known[name])) for name in names}
    if draw(st.integers(min_value=0, max_value=9)) == 0:
        options[draw(st.text(_CHARS, min_size=1, max_size=12).filter(lambda k: k not in known))] = draw(
            json_values
        )
    return preset, options


def deals(table_id: int, make_player: Any, *, buy_in: int, players: int = 2) -> Round | None:
    from tournaments.live.tables import services as tables

    for _ in range(players):
        tables.sit(user=make_player(chips=buy_in), table_id=table_id, buy_in=buy_in)
    game = Game.objects.get(table_id=table_id)
    return round_start.start_round(game_id=game.pk)


@hypothesis_settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=table_options())
def test_options_are_accepted_exactly_when_in_range_and_then_deal(
    drawn: tuple[str, dict[str, Any]], admin_user: Any, client_for: Any, make_player: Any
) -> None:
    preset, options = drawn
    body = {"game": preset, "options": options, "seats": 2, "pcr": 1, "min_buy_in": 100, "max_buy_in": 100}
    before = Table.objects.count()
    response = client_for(admin_user).post("/api/v1/tables/", body, format="json")
    event(f"accepted: {accepted(preset, options)}")
    if not accepted(preset, options):
        assert response.status_code == 400, (options, response.content)
        assert response.json()["error"]["code"] == "table.invalid_options"
        assert Table.objects.count() == before
        return
    assert response.status_code == 201, (options, response.content)
    assert response.json()["options"] == options
    round_ = deals(response.json()["id"], make_player, buy_in=100)
    assert round_ is not None, options
    game = Game.objects.get(table_id=response.json()["id"])
    assert game.status == GameStatus.PLAYING and game.turn_deadline is not None
    assert Table.objects.get(pk=response.json()["id"]).status == "open"


@hypothesis_settings(max_examples=150)
@given(
    st.sampled_from(PRESETS),
    st.sampled_from(sorted(CLOCK_OPTIONS) + sorted(RULE_OPTIONS)),
    st.sampled_from(
        [math.nan, math.inf, -math.inf, 1e308, 1e12, 10**400, -5, 0, 2.5, 30.0, True, [30], {"a": 1}]
    )
    | json_values,
)
def test_the_service_refuses_what_json_cannot_even_say(preset: str, key: str, value: Any) -> None:
    """The admin's JSON field reads NaN and Infinity, and Python callers pass anything: same check."""
    options = {key: value}
    fields = {"seats": 2, "pcr": 1, "min_buy_in": 1, "max_buy_in": 1, "multiplier": 1}
    if accepted(preset, options):
        assert table_settings.validate(game=preset, options=options, **fields).options == options
    else:
        with pytest.raises(InvalidRequest) as refused:
            table_settings.validate(game=preset, options=options, **fields)
        assert refused.value.code == "table.invalid_options"
        assert refused.value.details["field"] == "options"


FIELDS: dict[str, tuple[int, int]] = {
    "pcr": (1, 10**6),
    "multiplier": (1, 1000),
    "min_buy_in": (1, 10**12),
    "max_buy_in": (1, 10**12),
}
FIELD_CODES = {
    "seats": "table.invalid_seats",
    "pcr": "table.invalid_pcr",
    "multiplier": "table.invalid_pcr",
    "min_buy_in": "table.invalid_buy_in",
    "max_buy_in": "table.invalid_buy_in",
}


# Values DRF's integer field refuses as well as the service (it reads "12" and 12.0 as 12: not drawn here).
junk = st.sampled_from([True, False, None, "x", 1.5, 1e308, -1e308, "NaN", "inf", [], {}, [2], {"a": 2}])


def field_value(low: int, high: int) -> st.SearchStrategy[Any]:
    valid = st.integers(min_value=low, max_value=min(high, low + 50))
    edges = st.sampled_from([low - 1, high, high + 1, 2**63, -(2**63), 0])
    return weighted((18, valid), (1, edges), (1, junk))


@hypothesis_settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    preset=st.sampled_from(PRESETS),
    seats=field_value(2, 8),
    pcr=field_value(*FIELDS["pcr"]),
    multiplier=field_value(*FIELDS["multiplier"]),
    min_buy_in=field_value(*FIELDS["min_buy_in"]),
    max_buy_in=field_value(*FIELDS["max_buy_in"]),
)
def test_table_fields_are_accepted_exactly_when_in_range_and_then_deal(
    admin_user: Any,
    client_for: Any,
    make_player: Any,
    preset: str,
    seats: Any,
    pcr: Any,
    multiplier: Any,
    min_buy_in: Any,
    max_buy_in: Any,
) -> None:
    fields = {
        "seats": seats,
        "pcr": pcr,
        "multiplier": multiplier,
        "min_buy_in": min_buy_in,
        "max_buy_in": max_buy_in,
    }
    most = engine.Ruleset.preset(preset).max_players

    def ok(name: str, value: Any, low: int, high: int) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high

    valid = (
        ok("seats", fields["seats"], 2, most)
        and all(ok(name, fields[name], *FIELDS[name]) for name in FIELDS)
        and fields["min_buy_in"] <= fields["max_buy_in"]
    )
    before = Table.objects.count()
    response = client_for(admin_user).post("/api/v1/tables/", {"game": preset, **fields}, format="json")
    event(f"accepted: {valid}")
    if not valid:
        assert response.status_code == 400, (fields, response.content)
        assert response.json()["error"]["code"] in {"request.invalid", *FIELD_CODES.values()}
        assert Table.objects.count() == before
        return
    assert response.status_code == 201, (fields, response.content)
    round_ = deals(response.json()["id"], make_player, buy_in=fields["min_buy_in"], players=fields["seats"])
    assert round_ is not None and len(round_.players) == fields["seats"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"options": {"turn_seconds": 10**12}}, "table.invalid_options"),
        ({"options": {"time_bank_seconds": 1e308}}, "table.invalid_options"),
        ({"options": {"turn_seconds": 0}}, "table.invalid_options"),
        ({"options": {"turn_seconds": 4}}, "table.invalid_options"),
        ({"options": {"turn_seconds": 30.5}}, "table.invalid_options"),
        ({"options": {"max_timeouts": True}}, "table.invalid_options"),
        ({"game": "gin"}, "table.invalid_options"),
        ({"game": ["rummy500"]}, "table.invalid_options"),
        ({"seats": 9}, "table.invalid_seats"),
        ({"seats": 1}, "table.invalid_seats"),
        ({"pcr": 10**6 + 1}, "table.invalid_pcr"),
        ({"multiplier": 0}, "table.invalid_pcr"),
        ({"min_buy_in": 10**12 + 1, "max_buy_in": 10**12 + 1}, "table.invalid_buy_in"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "table.invalid_buy_in"),
    ],
)
def test_the_issue_s_examples_are_refused_by_the_service(
    settings: Any, change: dict[str, Any], code: str
) -> None:
    settings.RAMINO_MIN_TURN_SECONDS = 5  # the production floor
    fields: dict[str, Any] = {
        "game": "rummy500",
        "options": {},
        "seats": 4,
        "pcr": 1,
        "min_buy_in": 1,
        "max_buy_in": 10,
        "multiplier": 1,
        **change,
    }
    with pytest.raises(InvalidRequest) as refused:
        table_settings.validate(**fields)
    assert refused.value.code == code and refused.value.http_status == 400
    assert refused.value.details["field"] in fields


def test_the_turn_floor_is_five_seconds_in_production(settings: Any) -> None:
    settings.RAMINO_MIN_TURN_SECONDS = 5
    fields = {"game": "rummy500", "seats": 2, "pcr": 1, "min_buy_in": 1, "max_buy_in": 1, "multiplier": 1}
    assert table_settings.validate(options={"turn_seconds": 5}, **fields).options == {"turn_seconds": 5}
    with pytest.raises(InvalidRequest):
        table_settings.validate(options={"turn_seconds": 1}, **fields)

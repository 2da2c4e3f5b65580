"""A transfer's `computation` and a round's `details` are typed in the published schema (issue 19, defect 8):
what the code writes validates, and a record of another shape does not. The API tests check every real
answer against the same schema (tests.api.conformance), so these pin the shapes themselves."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ledger.settlement import pcr_settlement
from tests.api.conformance import ResponseValidator, closed
from tournaments.live.rounds.instant import instant_result


def _errors(spec: dict[str, Any], component: str, field: str, value: Any) -> list[str]:
    schema = spec["components"]["schemas"][component]["properties"][field]
    strict = {"allOf": [closed(schema)], "components": closed(json.loads(json.dumps(spec["components"])))}
    return [f"{e.json_path}: {e.message}" for e in ResponseValidator(strict).iter_errors(value)]


def test_computation_is_typed(published_spec: dict[str, Any]) -> None:
    schema = published_spec["components"]["schemas"]["Transfer"]["properties"]["computation"]
    assert {"pcr", "payers", "transfers", "buy_in", "reverses"} <= set(schema["properties"])
    assert schema["additionalProperties"] is True


def test_a_settlement_record_conforms(published_spec: dict[str, Any]) -> None:
    settlement = pcr_settlement(
        scores={"john": 100, "david": 70, "bob": 60},
        pcr=3,
        stacks={"john": 50, "david": 40, "bob": 500},
        seat_order=["john", "david", "bob"],
        tie_keys={"john": (1, 0), "david": (0, 0), "bob": (0, 1)},
    )
    record = {**settlement.computation(), "table_pcr": 3, "multiplier": 1}
    assert _errors(published_spec, "Transfer", "computation", record) == []
    assert (
        _errors(published_spec, "Transfer", "computation", {"buy_in": 100, "fee": 5, "why": "cancel"}) == []
    )
    assert _errors(published_spec, "Transfer", "computation", {}) == []


@pytest.mark.parametrize(
    "record",
    [
        {"pcr": "3"},
        {"payers": [{"player": "a"}]},
        {"transfers": [["a", "b"]]},
        {"buy_in": 1.5},
        {"shares": {"a": "10"}},
    ],
)
def test_a_mistyped_computation_is_refused(published_spec: dict[str, Any], record: dict[str, Any]) -> None:
    assert _errors(published_spec, "Transfer", "computation", record)


@pytest.mark.parametrize("component", ["Round", "Result"])
def test_round_details_are_typed(published_spec: dict[str, Any], component: str) -> None:
    details = instant_result(["ann", "bob"])["details"]
    assert _errors(published_spec, component, "details", details) == []
    basic = {
        "reason": "out",
        "went_out": "ann",
        "going_rummy": False,
        "scoring": "standard",
        "winners": ["ann"],
        "restocks": 0,
        "players": {"ann": {"hand": [], "hand_value": 0, "placed": ["AS", "2S", "3S"]}},
    }
    assert _errors(published_spec, component, "details", basic) == []
    assert _errors(published_spec, component, "details", {"reason": "out"})
    assert _errors(published_spec, component, "details", {**basic, "restocks": "0"})
    assert _errors(published_spec, component, "details", {**basic, "players": {"ann": {"hand": 3}}})


def test_details_of_an_unfinished_round_may_be_null(published_spec: dict[str, Any]) -> None:
    assert _errors(published_spec, "Round", "details", None) == []

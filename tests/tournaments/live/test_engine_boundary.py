"""Where live play reads the engine's values (a table's ruleset and clock options, the claim window, a stored
result) it answers the engine's own values and guesses nothing (no defaults of its own); everything else calls
the engine directly."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tournaments import engine
from tournaments.engine.bots import auto_move
from tournaments.live.clocks import arming
from tournaments.live.rounds import results
from tournaments.live.tables import settings as table_settings

SOURCE = Path(results.__file__)


@pytest.mark.parametrize(
    ("preset", "options", "seconds"), [("rummy500", {}, 5), ("rummy500", {"rummy_call_seconds": 9}, 9)]
)
def test_the_claim_window_is_the_rulesets(preset: str, options: dict[str, int], seconds: int) -> None:
    rules = table_settings.build_rules(preset, options)
    state = engine.new_round(rules, players=["ann", "bob"], dealer=0, round_number=1)
    assert arming.claim_seconds(state) == seconds


@pytest.mark.parametrize(("preset", "most"), [("rummy500", 4), ("rummy500_household", 8)])
def test_max_players_is_the_presets(preset: str, most: int) -> None:
    assert table_settings.build_rules(preset, {}).max_players == most


@pytest.mark.parametrize("seed", range(3))
def test_a_result_is_stored_as_the_engine_writes_it_without_the_secret_deal(seed: int) -> None:
    rules = engine.Ruleset.preset("rummy500")
    state = engine.new_round(rules, ["ann", "bob", "cid"], 1, 1, seed=seed)
    while state.result is None:
        state = engine.apply_move(state, state.may_act[0], auto_move(state, state.may_act[0]))
    stored = results.result_dict(state.result)
    written = state.result.to_dict()
    assert set(stored) == {"scores", "game_points", "bonuses", "details", "redeal"}
    assert set(written) - set(stored) == {"deck", "salt"}
    assert json.loads(json.dumps(stored)) == stored  # stored in a JSON field and sent as is
    assert stored == {k: v for k, v in written.items() if k not in ("deck", "salt")}


def test_the_players_hand_is_the_engines() -> None:
    rules = table_settings.build_rules("rummy500", {})
    state = engine.new_round(rules, players=["ann", "bob"], dealer=0, round_number=1)
    assert state.hand_of("bob") == state.hands[1]
    assert list(state.hand_of("bob")) == engine.player_view(state, "bob")["hand"]


def test_the_boundary_has_no_fallbacks_and_no_dynamic_imports() -> None:
    tree = ast.parse(SOURCE.read_text())
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not calls & {"getattr", "hasattr"}
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert "importlib" not in imported
    # Engine values are typed with the engine's types: no parameter or answer is a bare `Any`.
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.FunctionDef) and node.name != "_shown"
        ):  # `_shown` quotes any refused JSON value
            annotations = [a.annotation for a in node.args.args + node.args.kwonlyargs] + [node.returns]
            bare = [a for a in annotations if isinstance(a, ast.Name) and a.id == "Any"]
            assert not bare, f"{node.name} takes or answers Any"

"""The engine gives, move by move, the answers recorded before it was split into families (issue 10)."""

from __future__ import annotations

import json

from .golden_rounds import GOLDEN, _key, cases, fingerprint


def test_the_golden_file_covers_200_rounds_of_both_presets_with_2_to_8_players():
    golden = json.loads(GOLDEN.read_text())
    keys = [_key(*case) for case in cases()]
    assert len(keys) == 200 and set(golden) == set(keys)
    assert {case[1] for case in cases()} == {"rummy500", "rummy500_household"}
    assert {case[3] for case in cases() if case[1] == "rummy500_household"} == set(range(2, 9))
    assert {case[3] for case in cases() if case[1] == "rummy500"} == {2, 3, 4}


def test_seeded_bot_rounds_reproduce_the_golden_answers():
    golden = json.loads(GOLDEN.read_text())
    changed = [_key(*case) for case in cases() if fingerprint(*case) != golden[_key(*case)]]
    assert not changed, f"{len(changed)} of {len(golden)} rounds answer differently, e.g. {changed[:5]}"

"""docs/rules.md "Responsible play" maps each rule to its tests: every test it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_responsible_play_rule_map_names_existing_tests() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text()
    section = doc[doc.index("## Responsible play") :]
    section = section[: section.index("\n## ", 1)]
    named = re.findall(r"`((?:tests/sqlite/)?test_\w+\.py)::(test_\w+)`", section)
    assert len(named) >= 20
    for filename, test in named:
        path = ROOT / filename if filename.startswith("tests/") else ROOT / "tests" / "responsible" / filename
        tree = ast.parse(path.read_text())
        assert test in {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}, (filename, test)

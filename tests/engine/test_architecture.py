"""The engine stays a pure library, and every error code it raises is documented."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "tournaments" / "engine"
FORBIDDEN = ("django", "rest_framework", "celery", "kombu", "psycopg", "redis")
CODE_RE = re.compile(
    r"^(move|card|turn|round|draw|meld|layoff|hand|play|swap|discard|end_round|claims|deal|close|ruleset)"
    r"\.[a-z_]+$"
)


def _modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))  # the family subpackages included


def test_no_framework_imports_in_the_engine_source():
    for path in _modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"


def test_importing_the_engine_loads_no_framework():
    code = (
        "import sys, tournaments.engine, tournaments.engine.engine;"
        "import importlib, pkgutil;"
        "[importlib.import_module('tournaments.engine.' + m.name) for m in pkgutil.iter_modules(tournaments.engine.__path__)];"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    # tournaments/__init__.py must not pull Django in either; run in a clean interpreter
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={"PATH": ""}
    )
    assert out.returncode == 0, out.stdout + out.stderr


def _raised_codes() -> set[str]:
    codes: set[str] = set()
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_RE.match(node.value):
                codes.add(node.value)
    return codes


def test_every_error_code_is_documented():
    doc = (ROOT / "docs" / "rules.md").read_text()
    codes = _raised_codes()
    assert len(codes) > 30
    missing = sorted(c for c in codes if f"`{c}`" not in doc)
    assert not missing, f"codes missing from docs/rules.md: {missing}"


def test_codes_are_written_once_in_the_rule_code_enum():
    """The engine raises `RuleCode` members: a code's string is written in errors.py and nowhere else, and the
    enum is exactly the codes the engine's source names (the API's schema lists the enum)."""
    from tournaments.engine import RuleCode

    elsewhere = sorted(
        f"{path.relative_to(ENGINE)}:{node.lineno} {node.value}"
        for path in _modules()
        if path != ENGINE / "errors.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_RE.match(node.value)
    )
    assert elsewhere == []
    assert {code.value for code in RuleCode} == _raised_codes()


def test_no_dynamic_error_codes():
    """Codes are literals so the documentation test above sees them all."""
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("IllegalMove", "MeldError"):
                first = node.args[0] if node.args else None
                assert isinstance(first, ast.Constant | ast.Name | ast.Attribute), (
                    f"{path.name}:{node.lineno} builds a code"
                )
                assert not isinstance(first, ast.JoinedStr)


def test_the_rule_map_in_the_docs_names_existing_tests():
    doc = (ROOT / "docs" / "rules.md").read_text()
    section = doc[doc.index("## Rule → test map") : doc.index("## Error codes")]
    named = re.findall(r"`(test_\w+\.py)::(test_\w+)`", section)
    assert len(named) > 60
    defined: dict[str, set[str]] = {}
    for filename in {f for f, _ in named}:
        tree = ast.parse((ROOT / "tests" / "engine" / filename).read_text())
        defined[filename] = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    for filename, test in named:
        assert test in defined[filename], f"docs/rules.md names {filename}::{test}, which does not exist"


# ---------------------------------------------------------------------- the engine's layout (issue 10)

MAX_MODULE_LINES = 500


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _engine_imports() -> dict[str, set[str]]:
    """Engine module -> the engine modules it imports (anywhere in its body, relative or absolute)."""
    modules = {_module_name(p): p for p in _modules()}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    target = f"{base}.{node.module}" if node.module else base
                else:
                    target = node.module or ""
                targets.add(target)
                targets |= {f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules}
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def test_no_engine_module_is_over_500_lines():
    long = {p.name: n for p in _modules() if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"split these modules (one job each): {long}"


def test_the_import_graph_has_the_modules_and_no_cycle():
    graph = _engine_imports()
    assert "tournaments.engine.families.rummy500.draw" in graph["tournaments.engine.families.rummy500"]
    assert "tournaments.engine.turn" in graph["tournaments.engine.families.rummy500.draw"]
    done: set[str] = set()

    def visit(node: str, path: tuple[str, ...]) -> None:
        assert node not in path, f"import cycle: {' -> '.join((*path[path.index(node) :], node))}"
        if node in done:
            return
        for nxt in sorted(graph[node]):
            visit(nxt, (*path, node))
        done.add(node)

    for module in sorted(graph):
        visit(module, ())


def test_family_modules_do_not_import_each_other_and_shared_modules_import_no_family():
    graph = _engine_imports()
    prefix = "tournaments.engine.families."
    families = {m[len(prefix) :].split(".")[0] for m in graph if m.startswith(prefix)}
    assert {"rummy500", "board"} <= families
    for module, targets in graph.items():
        if module.startswith(prefix):
            own = module[len(prefix) :].split(".")[0]
            others = {t for t in targets if t.startswith(prefix) and not t.startswith(f"{prefix}{own}")}
            assert not others, f"{module} imports another family: {others}"
    # The seam: the shared rules modules know no family; only the entry points, the registry, the views
    # and the bots (the greedy ones and the strong one) look one up.
    allowed = {"engine", "views", "bots", "strong_bot", "families"}
    for module, targets in graph.items():
        short = module.removeprefix("tournaments.engine.")
        if short.startswith("families") or short in allowed or module == "tournaments.engine":
            continue
        assert not any(t.startswith(prefix) or t == prefix[:-1] for t in targets), (
            f"{module} imports a family"
        )
    # Those that look one up go through the registry (``families``) and the seam (``Family``, its ``bots``
    # included), never into a family's package; the package's own ``__init__`` re-exports Board Rummy's
    # ``classify`` and ``find_arrangement``, public entry points.
    for module, targets in graph.items():
        if module.startswith(prefix) or module in ("tournaments.engine", prefix[:-1]):
            continue
        assert not any(t.startswith(prefix) for t in targets), f"{module} imports a family's package"

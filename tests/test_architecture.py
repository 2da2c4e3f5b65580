"""Every installed app's modules (and config's) import each other in one direction: no cycle, services below
views and tasks, the ledger below the games, live play below the tournament kinds, and no module too long to
read (docs/architecture.md; the engine's own rules are tests/engine/test_architecture.py).

The graph is read from the source (`ast`): an import inside a function counts as much as one at the top, so a
cycle cannot hide in a function body. Every module is also imported, so the graph describes code that loads.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = (
    "config",
    "database",
    "api",
    "accounts",
    "security",
    "admin_confirm",
    "ledger",
    "play",
    "audit",
    "tournaments",
    "operations",
    "integrity",
    "ratings",
    "live_room",
)
# The modules that call services; no service or selector imports one of them.
# (and a simulation, which runs the task bodies in order as a worker would)
UPPER = ("views", "tasks", "urls", "admin", "serializers", "idempotent_views", "simulation")
MAX_LINES = 500


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


SOURCES = _sources()


def _imported(module: str, path: Path) -> Iterator[str]:
    """The project modules `module` imports, wherever in the file the import statement is."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # `from a.b import c` imports the module a.b.c when there is one, else a name of a.b.
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in SOURCES else base for alias in node.names
            ]
        else:
            continue
        for name in names:
            # `import a.b.c` where only a.b is ours (or a name inside it): the longest known prefix.
            while name and name not in SOURCES:
                name = name.rpartition(".")[0]
            if name and name != module:
                yield name


def _graph() -> dict[str, set[str]]:
    return {module: set(_imported(module, path)) for module, path in SOURCES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each a cycle or a knot of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_the_graph_sees_the_imports_it_should() -> None:
    """The reader itself: a top-level, a relative-free `from a import module` and a function-level import."""
    graph = _graph()
    assert "tournaments.live.round_start" in graph["tournaments.tasks"]
    assert "tournaments.live.models" in graph["tournaments.live.seats"]
    assert "ledger.services.postings" in graph["tournaments.live.seats"]
    assert _lower("tournaments.live.moves") and _lower("ledger.selectors") and not _lower("ledger.views")
    assert not _lower("tournaments.live.views") and not _lower("tournaments.tasks")
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize(
    "module",
    # Settings modules are read by Django at start-up (the production one refuses to load without its secrets).
    sorted(m for m in SOURCES if not m.startswith("config.settings")),
)
def test_every_module_imports(module: str) -> None:
    importlib.import_module(module)


def test_no_import_cycle() -> None:
    assert _cycles(_graph()) == []


def _lower(module: str) -> bool:
    """Services and selectors: what views, tasks, serializers and the admin are built on."""
    parts = module.split(".")
    if parts[0] in ("accounts", "ledger", "audit", "integrity", "ratings"):
        return len(parts) > 1 and parts[1] in ("services", "selectors")
    # tournaments: every module of a concern's folder but its HTTP, task and admin modules
    return (
        parts[0] == "tournaments"
        and len(parts) > 2
        and parts[1] in ("live", "tournament", "single_table", "multi_table", "practice", "fair_play")
        and parts[-1] not in UPPER
    )


def test_services_and_selectors_never_import_views_or_tasks() -> None:
    wrong = [
        (module, target)
        for module, targets in _graph().items()
        if _lower(module)
        for target in targets
        if target.split(".")[-1] in UPPER
    ]
    assert wrong == []


def test_the_ledger_imports_nothing_from_the_games() -> None:
    wrong = [
        (module, target)
        for module, targets in _graph().items()
        if module.startswith("ledger")
        for target in targets
        if target.startswith("tournaments")
    ]
    assert wrong == []


def _within(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


KINDS = ("tournaments.single_table", "tournaments.multi_table", "tournaments.practice")
# What every kind shares still naming a kind: the API's multi-table reads (standings, tables, events) are picked
# by kind in the shared views (to move beside the kind, with per-kind read hooks).
SHARED_NAMING_A_KIND = {("tournaments.tournament.views", "tournaments.multi_table.selectors")}


def test_live_play_imports_no_tournament_kind() -> None:
    """A kind's behaviour reaches live play through its table policy (`live.policy.register`, at ready)."""
    wrong = [
        (module, target)
        for module, targets in _graph().items()
        if _within(module, ("tournaments.live",))
        for target in sorted(targets)
        if _within(target, ("tournaments.tournament", *KINDS))
    ]
    assert wrong == []


def test_what_the_kinds_share_imports_no_kind() -> None:
    """The shared tournament code asks a tournament's kind (`tournament.kinds`, filled at ready)."""
    found = {
        (module, target)
        for module, targets in _graph().items()
        if _within(module, ("tournaments.tournament",))
        for target in targets
        if _within(target, KINDS)
    }
    assert found == SHARED_NAMING_A_KIND


def test_no_module_is_too_long_to_read() -> None:
    long = {
        module: lines
        for module, path in SOURCES.items()
        if ".migrations." not in module and (lines := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_graph_covers_every_installed_app_of_the_project() -> None:
    from django.conf import settings

    ours = {app.split(".")[0] for app in settings.INSTALLED_APPS if (ROOT / app.split(".")[0]).is_dir()}
    assert ours | {"config", "database"} == set(PACKAGES)  # config: the project; database: row helpers

"""Every installed app's modules (and config's) import each other in one direction: no cycle of modules nor of
apps, config at the top and api, database and operations' metrics at the bottom, services below views and tasks,
the ledger below the games, live play below the tournament kinds and read through its public face (`tournaments.live`)
or its models, no kind importing another, the engine
importing nothing of the project, no folder too full and no module too long to read (docs/architecture.md,
whose paths must exist; the engine's own rules are tests/engine/test_architecture.py).

The graph is read from the source (`ast`): an import inside a function counts as much as one at the top, so a
cycle cannot hide in a function body. Every module is also imported, so the graph describes code that loads.
"""

from __future__ import annotations

import ast
import importlib
import re
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
    "notifications",
    "responsible",
    "devtools",
    "chat",
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
LIVE = "tournaments.live"


def _face() -> dict[str, tuple[str, str | None]]:
    """Live play's public face (`tournaments/live/__init__.py`): each name and the module that defines it."""
    module = importlib.import_module(LIVE)
    return dict(module._FACE)


FACE = _face()


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
            # `from a.b import c` imports the module a.b.c when there is one, else a name of a.b; a name of live
            # play's face is an arrow to the module that defines it (the face is lazy: it imports on first use).
            names = [
                f"{base}.{alias.name}"
                if f"{base}.{alias.name}" in SOURCES
                else FACE[alias.name][0]
                if base == LIVE and alias.name in FACE
                else base
                for alias in node.names
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
    assert "tournaments.live.rounds.start" in graph["tournaments.tasks"]
    assert "tournaments.live.models" in graph["tournaments.live.tables.seats"]
    assert "ledger.services.postings" in graph["tournaments.live.tables.seats"]
    assert (
        _lower("tournaments.live.moves.pipeline")
        and _lower("ledger.selectors")
        and not _lower("ledger.views")
    )
    assert not _lower("tournaments.live.http.views") and not _lower("tournaments.tasks")
    # A name of live play's face: an arrow to where it is defined.
    assert "tournaments.live.messaging.dispatch" in graph["tournaments.single_table.progress"]
    assert "tournaments.live.rounds.between" in graph["tournaments.single_table.progress"]
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
    if parts[0] in ("accounts", "ledger", "audit", "integrity", "ratings", "chat"):
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
    """A kind's behaviour reaches live play through its table policy (`live.tables.policy.register`, at ready)."""
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
    # config: the project; database: row helpers; devtools: simulators and drivers for commands and tests
    assert ours | {"config", "database", "devtools"} == set(PACKAGES)


# --- apps ---------------------------------------------------------------------------------------------------
# An app is a top-level package. A management command is a program, as config is: nothing imports it and it
# may compose any app (load_demo makes staff through audit), so it is no arrow between apps; so is devtools/,
# the simulators and drivers the commands and the tests run. Operations'
# metrics (`operations/metrics.py`, no project import) sit at the bottom apart from the rest of operations (the
# /metrics view and the gauges read from the games): every layer reports through them.
BOTTOM = ("api", "database", "operations.metrics")
# Folders with more modules than MAX_MODULES, each named with the day it was let be and why (none now).
MAX_MODULES = 20
FULL_FOLDERS: dict[str, int] = {}


def _is_entry_point(module: str) -> bool:
    """A management command, or the development tooling they and the tests run (devtools/)."""
    return ".management." in f"{module}." or _within(module, ("devtools",))


def _app(module: str) -> str:
    for bottom in BOTTOM:
        if _within(module, (bottom,)):
            return bottom
    return module.split(".")[0]


def _app_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, targets in _graph().items():
        if _is_entry_point(module):
            continue
        graph.setdefault(_app(module), set()).update(
            _app(target) for target in targets if _app(target) != _app(module)
        )
    return graph


def test_the_app_graph_is_read_as_apps() -> None:
    graph = _app_graph()
    assert "ledger" in graph["tournaments"] and "operations.metrics" in graph["tournaments"]
    assert "operations" not in graph["tournaments"]  # live play reports through the metrics only
    assert (
        _app("tournaments.live.moves.pipeline") == "tournaments"
        and _app("operations.metrics") == "operations.metrics"
    )
    assert _is_entry_point("tournaments.management.commands.load_demo") and not _is_entry_point(
        "tournaments.tasks"
    )


def test_only_commands_and_tests_import_the_development_tooling() -> None:
    wrong = sorted(
        (module, target)
        for module, targets in _graph().items()
        if not _is_entry_point(module)
        for target in targets
        if _within(target, ("devtools",))
    )
    assert wrong == []


def test_no_app_level_cycle() -> None:
    assert _cycles(_app_graph()) == []


def test_nothing_imports_config() -> None:
    """config is the top: settings, urls, the Celery app and what needs every app (the schema's error codes)."""
    wrong = sorted(
        (module, target)
        for module, targets in _graph().items()
        if not _within(module, ("config",))
        for target in targets
        if _within(target, ("config",))
    )
    assert wrong == []


def test_the_bottom_imports_no_app_above_it() -> None:
    wrong = sorted(
        (module, target)
        for module, targets in _graph().items()
        if _app(module) in BOTTOM
        for target in targets
        if _app(target) != _app(module)
    )
    assert wrong == []


def test_no_kind_imports_another_kind() -> None:
    wrong = sorted(
        (module, target)
        for module, targets in _graph().items()
        for kind in KINDS
        if _within(module, (kind,))
        for target in targets
        if _within(target, tuple(k for k in KINDS if k != kind))
    )
    assert wrong == []


def test_the_engine_imports_nothing_of_the_project() -> None:
    wrong = sorted(
        (module, target)
        for module, targets in _graph().items()
        if _within(module, ("tournaments.engine",))
        for target in targets
        if not _within(target, ("tournaments.engine",))
    )
    assert wrong == []


def test_no_folder_is_too_full() -> None:
    """At most MAX_MODULES modules a folder (its `__init__` and migrations aside): past that, sub-packages."""
    counts: dict[str, int] = {}
    for path in SOURCES.values():
        folder = path.parent.relative_to(ROOT).as_posix()
        if path.name != "__init__.py" and "migrations" not in path.parts:
            counts[folder] = counts.get(folder, 0) + 1
    full = {folder: n for folder, n in counts.items() if n > FULL_FOLDERS.get(folder, MAX_MODULES)}
    assert full == {}


# tests/tournaments/ mirrors tournaments/ (docs/architecture.md "Where things are"): a folder a package, each a
# package itself (`__init__.py`, so modules of different folders may share a name) with at most MAX_MODULES test
# modules, and what its tests share in `conftest.py` (fixtures) and at most one module, `helpers.py`.
def _test_folders() -> dict[str, list[str]]:
    tests = ROOT / "tests" / "tournaments"
    folders = [tests, *(p for p in tests.rglob("*") if p.is_dir() and p.name != "__pycache__")]
    return {f.relative_to(ROOT).as_posix(): sorted(p.name for p in f.glob("*.py")) for f in folders}


def test_the_tournaments_tests_are_folders_of_few_modules_sharing_one_helpers_module() -> None:
    folders = _test_folders()
    full = {
        f: n for f, names in folders.items() if (n := sum(x.startswith("test_") for x in names)) > MAX_MODULES
    }
    shared = {f: [x for x in names if not x.startswith("test_")] for f, names in folders.items()}
    wrong = {
        f: names
        for f, names in shared.items()
        if set(names) - {"conftest.py", "helpers.py"} != {"__init__.py"}
    }
    assert len(folders) > 1 and full == {} and wrong == {}


_DOC_PATH = re.compile(r"`([a-z_]+(?:/[a-z_0-9<>.]+)+/?)`")


def test_the_paths_docs_architecture_names_exist() -> None:
    """Every path docs/architecture.md names in backquotes from a top folder of the project (`folder/`,
    `folder/module.py`) is in the code; a placeholder (`<kind>`) or an example of a change still to make (under "Where each kind of change goes")
    is not a claim about the code."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    claims = text.split("## Where each kind of change goes")[0] + text.split("## Where things are")[-1]
    missing = sorted(
        {
            found
            for found in _DOC_PATH.findall(claims)
            if "<" not in found and (ROOT / found.split("/")[0]).is_dir() and not (ROOT / found).exists()
        }
    )
    assert missing == []


# --- live play's public face ----------------------------------------------------------------------------------
# What may name a sub-module of live play from outside it: the app's wiring (its Celery tasks, its URLs, its admin
# site) and the programs (management commands, devtools/), as config may name any module.
LIVE_WIRING = ("tournaments.tasks", "tournaments.urls", "tournaments.admin")


def _live_imports_named(path: Path) -> Iterator[str]:
    """Every `tournaments.live…` a module names in an import statement, as written (`from tournaments.live import
    x` as `tournaments.live:x`)."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if _within(alias.name, (LIVE,)))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _within(node.module or "", (LIVE,)):
            if node.module == LIVE:
                yield from (f"{LIVE}:{alias.name}" for alias in node.names)
            else:
                yield str(node.module)
        elif isinstance(node, ast.ImportFrom) and node.module == "tournaments":
            yield from (f"tournaments.{alias.name}" for alias in node.names if alias.name == "live")


def test_outside_live_play_only_its_face_and_models_are_imported() -> None:
    """The kinds (single-table, multi-table, practice), the shared tournament code and every other app import
    `tournaments.live` (a name of its face) or `tournaments.live.models`, never a sub-package, so live play may
    rearrange its insides without editing them."""
    allowed = {f"{LIVE}.models", f"{LIVE}:models", *(f"{LIVE}:{name}" for name in FACE)}
    wrong = sorted(
        (module, named)
        for module, path in SOURCES.items()
        if not _within(module, (LIVE,)) and module not in LIVE_WIRING and not _is_entry_point(module)
        for named in _live_imports_named(path)
        if named not in allowed
    )
    assert wrong == []


def test_live_play_never_imports_its_own_face() -> None:
    """Inside live play a module imports the module it needs: the face is for the others (through it, a module
    of live play would make a cycle that the face's laziness hides)."""
    wrong = sorted(
        (module, named)
        for module, path in SOURCES.items()
        if _within(module, (LIVE,))
        for named in _live_imports_named(path)
        if named.startswith(f"{LIVE}:") and named != f"{LIVE}:models"
    )
    assert wrong == []


def test_the_face_names_what_it_imports_for_the_type_checker() -> None:
    """The face's lazy table, its `__all__` and its imports for the type checker agree, and every name loads."""
    path = SOURCES[LIVE]
    typed: dict[str, tuple[str, str | None]] = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    module = f"{statement.module}.{alias.name}"
                    typed[alias.asname or alias.name] = (
                        (module, None) if module in SOURCES else (statement.module, alias.name)
                    )
    live = importlib.import_module(LIVE)
    assert typed == FACE
    assert sorted(live.__all__) == sorted(FACE)
    for name, (module, attribute) in FACE.items():
        found = importlib.import_module(module)
        assert getattr(live, name) is (found if attribute is None else getattr(found, attribute))
    with pytest.raises(AttributeError):
        _ = live.no_such_name

"""The benchmarks stay runnable: `make test` runs every `bench-*` target of the Makefile in tiny mode
(`make bench-tiny`, tests/benchmarks/tiny.py), so none rots unseen. These tests guard that arrangement: no
benchmark target can be left out of the tiny run, each one's script honours tiny mode, and each script starts
the way `make` starts it (`python -m`, before Django is set up)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmarks import tiny

ROOT = Path(__file__).resolve().parent.parent
MAKEFILE = ROOT / "Makefile"
# Targets about the benchmarks rather than benchmarks.
NOT_BENCHMARKS = {"bench-tiny", "bench-targets"}


def _recipes() -> dict[str, str]:
    """Each target of the Makefile with its recipe (the tab-indented lines after it)."""
    recipes: dict[str, str] = {}
    current = None
    for line in MAKEFILE.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+):(?!=)(.*)$", line)
        if match:
            current = match.group(1)
            recipes[current] = match.group(2) + "\n"
        elif line.startswith("\t") and current:
            recipes[current] += line + "\n"
        elif line.strip() and not line.startswith("#"):
            current = None
    return recipes


def _benchmark_targets() -> dict[str, str]:
    return {
        name: recipe
        for name, recipe in _recipes().items()
        if name.startswith("bench-") and name not in NOT_BENCHMARKS
    }


def _module(recipe: str) -> str:
    match = re.search(r"python -m (tests\.benchmarks\.\w+)", recipe)
    assert match, recipe
    return match.group(1)


def _make(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    return subprocess.run(
        ["make", "-s", "--no-print-directory", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_every_benchmark_target_is_in_the_tiny_run() -> None:
    targets = _benchmark_targets()
    assert {"bench-ledger", "bench-engine", "bench-api", "bench-tournament"} <= set(targets)
    assert _make("bench-targets").split() == list(targets)
    # ...and `make test` runs the tiny run (its steps are `test-steps`' prerequisites, run by make -j).
    assert "test-steps" in _recipes()["test"].split()
    assert "bench-tiny" in _recipes()["test-steps"].split()
    assert "BENCH_TINY=1" in _recipes()["bench-tiny"]


@pytest.mark.parametrize("target", sorted(_benchmark_targets()))
def test_each_benchmark_honours_tiny_mode(target: str) -> None:
    module = _module(_benchmark_targets()[target])
    source = (ROOT / Path(*module.split("."))).with_suffix(".py").read_text()
    assert "tiny.argv(" in source, f"{target}: {module} does not read its arguments through tiny.argv"


@pytest.mark.parametrize("target", sorted(_benchmark_targets()))
def test_each_benchmark_starts_before_django_is_set_up(target: str) -> None:
    """`python -m tests.benchmarks.X` imports the module before its main sets Django up (bench-tournament
    once died there with AppRegistryNotReady): importing it in a fresh interpreter must work."""
    module = _module(_benchmark_targets()[target])
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    run = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr[-3000:]


def test_tiny_arguments_come_first_and_only_in_tiny_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tiny.ENV, raising=False)
    assert tiny.argv(["--keep"], ["--rounds", "1"]) == ["--keep"]
    monkeypatch.setenv(tiny.ENV, "0")
    assert tiny.argv(["--keep"], ["--rounds", "1"]) == ["--keep"]
    monkeypatch.setenv(tiny.ENV, "1")
    # The command line's come last: argparse keeps the last value, so BENCH_ARGS still wins.
    assert tiny.argv(["--rounds", "5"], ["--rounds", "1"]) == ["--rounds", "1", "--rounds", "5"]

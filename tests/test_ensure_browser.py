"""deploy/ensure_browser.sh, which `make test` runs first: Chromium and its driver present, installed with
apt-get when missing and allowed (root), or the run stopped at once with one line saying what to run.

The machine's own Chromium is never touched: the script takes the binaries' paths and the package tool from
the environment, and these tests point them into a scratch folder (a fake apt-get included)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "ensure_browser.sh"
ROOTED = os.geteuid() == 0
SUDO_LINE = "; run: sudo apt-get install -y chromium chromium-driver"


def _executable(path: Path, body: str = "exit 0") -> Path:
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def _fake_apt_get(folder: Path, *, works: bool) -> Path:
    """Records its calls; `install` creates the two binaries at the paths the script checks, or fails."""
    log = folder / "apt-get.log"
    install = (
        '  touch "$RAMINO_CHROMIUM" "$RAMINO_CHROMEDRIVER"; chmod +x "$RAMINO_CHROMIUM" "$RAMINO_CHROMEDRIVER"'
        if works
        else '  echo "E: Unable to locate package chromium" >&2; exit 100'
    )
    return _executable(
        folder / "apt-get",
        f'echo "$*" >> {log}\nif [ "$1" = install ]; then\n{install}\nfi',
    )


def _run(tmp_path: Path, *, apt_get: str, present: bool = False) -> subprocess.CompletedProcess[str]:
    chromium, driver = tmp_path / "bin" / "chromium", tmp_path / "bin" / "chromedriver"
    chromium.parent.mkdir(exist_ok=True)
    if present:
        _executable(chromium)
        _executable(driver)
    env = {
        "PATH": os.environ["PATH"],
        "RAMINO_CHROMIUM": str(chromium),
        "RAMINO_CHROMEDRIVER": str(driver),
        "RAMINO_APT_GET": apt_get,
    }
    return subprocess.run(["bash", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=60)


def _apt_calls(tmp_path: Path) -> list[str]:
    log = tmp_path / "apt-get.log"
    return log.read_text().splitlines() if log.exists() else []


def test_present_binaries_need_nothing(tmp_path: Path) -> None:
    apt_get = _fake_apt_get(tmp_path, works=True)
    done = _run(tmp_path, apt_get=str(apt_get), present=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert _apt_calls(tmp_path) == []


@pytest.mark.parametrize("apt_get", ["", "/nonexistent/apt-get"], ids=["installing-disallowed", "no-apt-get"])
def test_missing_without_apt_get_stops_with_one_line(tmp_path: Path, apt_get: str) -> None:
    done = _run(tmp_path, apt_get=apt_get)
    assert done.returncode == 1 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    chromium, driver = tmp_path / "bin" / "chromium", tmp_path / "bin" / "chromedriver"
    assert line == (
        f"make test stopped: the browser tests need {chromium} and {driver}; install Chromium and its "
        "chromedriver, then run: RAMINO_CHROMIUM=/path/to/chromium RAMINO_CHROMEDRIVER=/path/to/chromedriver "
        "make test"
    )


def test_missing_with_apt_get_installs_as_root_or_says_to_sudo(tmp_path: Path) -> None:
    apt_get = _fake_apt_get(tmp_path, works=True)
    done = _run(tmp_path, apt_get=str(apt_get))
    if ROOTED:
        assert done.returncode == 0, done.stderr
        assert _apt_calls(tmp_path) == ["update -qq", "install -y -qq chromium chromium-driver"]
        assert os.access(tmp_path / "bin" / "chromium", os.X_OK)
        assert os.access(tmp_path / "bin" / "chromedriver", os.X_OK)
    else:
        assert done.returncode == 1 and _apt_calls(tmp_path) == []
        (line,) = done.stderr.splitlines()
        assert line.endswith(SUDO_LINE)


def test_a_failed_install_stops_with_one_line(tmp_path: Path) -> None:
    apt_get = _fake_apt_get(tmp_path, works=False)
    done = _run(tmp_path, apt_get=str(apt_get))
    assert done.returncode == 1
    ours = [line for line in done.stderr.splitlines() if line.startswith("make test stopped")]
    if ROOTED:
        assert _apt_calls(tmp_path) == ["update -qq", "install -y -qq chromium chromium-driver"]
        assert ours == [
            "make test stopped: installing chromium and chromium-driver failed (above); fix it, then run: "
            "apt-get install -y chromium chromium-driver"
        ]
    else:
        assert len(ours) == 1 and ours[0].endswith(SUDO_LINE)


def test_make_test_runs_it_before_anything_else(tmp_path: Path) -> None:
    """`make test` with Chromium missing and no way to install it stops at once, having run nothing else."""
    env = {
        **os.environ,
        "RAMINO_CHROMIUM": str(tmp_path / "none" / "chromium"),
        "RAMINO_CHROMEDRIVER": str(tmp_path / "none" / "chromedriver"),
        "RAMINO_APT_GET": "",
    }
    # Run as a top-level make even inside `make test` (else it prints "Entering directory" lines).
    for inherited in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES"):
        env.pop(inherited, None)
    done = subprocess.run(["make", "test"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert done.stdout == ""  # neither ruff nor anything else started
    assert "make test stopped: the browser tests need" in done.stderr
    for target in ("test", "test-browser"):
        planned = subprocess.run(
            ["make", "-n", target], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert planned.returncode == 0, planned.stderr
        # the first thing the target runs, before the install, the linters and the suite
        assert planned.stdout.splitlines()[0] == "bash deploy/ensure_browser.sh", planned.stdout

"""tournaments.multi_table.faults.pause_point: a no-op unless the process was told to pause at that very point."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tournaments.multi_table import faults


def test_a_point_not_named_does_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    monkeypatch.setenv(faults.MARKER_ENV, str(marker))
    monkeypatch.delenv(faults.PAUSE_AT_ENV, raising=False)
    began = time.monotonic()
    faults.pause_point(faults.ROUND_END)
    monkeypatch.setenv(faults.PAUSE_AT_ENV, faults.PAYOUT)
    faults.pause_point(faults.ROUND_END)
    assert time.monotonic() - began < 1.0
    assert not marker.exists()


def test_the_named_point_writes_the_marker_then_pauses(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    slept: list[float] = []
    monkeypatch.setenv(faults.MARKER_ENV, str(marker))
    monkeypatch.setenv(faults.PAUSE_AT_ENV, faults.BALANCE)
    monkeypatch.setattr(time, "sleep", slept.append)
    faults.pause_point(faults.BALANCE)
    assert marker.read_text().startswith(f"{faults.BALANCE} ")
    assert slept == [faults.PAUSE_SECONDS]
    assert len(set(faults.POINTS)) == len(faults.POINTS) == 6

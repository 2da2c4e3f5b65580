"""The multiprocess directory in deploy/: every app container writes to one `metrics` volume at the path
env.example names, the image creates that folder for its unprivileged user, the migrate step empties it, and
gunicorn drops a dead worker's live gauges; `make run` gives its three processes one folder under var/."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.test_deploy import APP_SERVICES, DEPLOY, _compose, _env_example, _run_local


def test_every_app_container_shares_the_metrics_volume_at_the_configured_path() -> None:
    folder = _env_example()["PROMETHEUS_MULTIPROC_DIR"]
    compose = _compose()
    assert "metrics" in compose["volumes"]
    for name in APP_SERVICES:
        assert f"metrics:{folder}" in compose["services"][name]["volumes"], name
    migrate = " ".join(compose["services"]["migrate"]["command"])
    assert f"rm -f {folder}/*.db" in migrate and migrate.index("rm -f") < migrate.index("manage.py migrate")
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert f"mkdir -p {folder}" in dockerfile and "chown -R ramino:ramino /app/var" in dockerfile


def test_gunicorn_marks_a_dead_worker_in_multiprocess_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = importlib.util.spec_from_file_location("gunicorn_conf_probe", DEPLOY / "gunicorn.conf.py")
    assert spec is not None and spec.loader is not None
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    (tmp_path / "gauge_livesum_4242.db").write_bytes(b"")
    (tmp_path / "counter_4242.db").write_bytes(b"")
    conf.child_exit(None, SimpleNamespace(pid=4242))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["counter_4242.db"]  # counters stay in the sums


def test_make_run_gives_its_processes_one_emptied_folder(tmp_path: Path) -> None:
    run_local = _run_local()
    stale = tmp_path / "metrics" / "counter_1.db"
    stale.parent.mkdir()
    stale.write_bytes(b"")
    folder = run_local.metrics_dir({**os.environ, "RAMINO_VAR_DIR": str(tmp_path)})
    assert folder == tmp_path / "metrics" and folder.is_dir() and not stale.exists()

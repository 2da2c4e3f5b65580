"""deploy/: the compose file, the env example, gunicorn's config and the local launcher stay consistent.

Docker is not available to the suite, so these check what can be checked without it.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import re
import runpy
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
APP_SERVICES = ("web", "worker", "practice-bots", "notifications", "beat", "migrate")


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def _env_example() -> dict[str, str]:
    values: dict[str, str] = {}
    for number, line in enumerate((DEPLOY / "env.example").read_text().splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key, sep, value = stripped.partition("=")
        assert sep and re.fullmatch(r"[A-Z][A-Z0-9_]*", key), f"env.example line {number}: {line!r}"
        assert key not in values, f"env.example sets {key} twice"
        values[key] = value
    return values


def test_compose_has_the_services_with_health_checks() -> None:
    services = _compose()["services"]
    assert set(services) >= {"web", "worker", "beat", "postgres", "redis", "migrate"}
    assert "/ready/" in " ".join(services["web"]["healthcheck"]["test"])
    assert "pg_isready" in " ".join(services["postgres"]["healthcheck"]["test"])
    assert services["redis"]["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]
    assert services["migrate"]["restart"] == "no"
    assert "manage.py migrate" in " ".join(services["migrate"]["command"])


def test_compose_app_services_share_the_image_env_and_wait_for_migrations() -> None:
    services = _compose()["services"]
    for name in APP_SERVICES:
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).is_file()
        assert {"path": "env.example", "required": True} in service["env_file"]
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        if name != "migrate":
            assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    beat = " ".join(services["beat"]["command"])
    assert "beat" in beat and "django_celery_beat.schedulers:DatabaseScheduler" in beat
    # Two workers: the main one on the default queue, one of its own for practice (docs/operations.md "Queues").
    assert "-Q $${CELERY_TASK_DEFAULT_QUEUE:-celery}" in " ".join(services["worker"]["command"])
    bots = " ".join(services["practice-bots"]["command"])
    assert "-Q $${RAMINO_PRACTICE_BOTS_QUEUE:-practice_bots}" in bots and "celery -A config worker" in bots
    assert "deploy/gunicorn.conf.py" in services["web"]["command"]


def test_env_example_names_every_variable_the_settings_read() -> None:
    read: set[str] = set()
    pattern = re.compile(r"""env(?:\.\w+)?\(\s*["']([A-Z][A-Z0-9_]*)["']""")
    for path in (ROOT / "config" / "settings").glob("*.py"):
        read |= set(pattern.findall(path.read_text()))
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL"} <= read  # the scan works
    missing = read - set(_env_example())
    assert not missing, f"deploy/env.example lacks {sorted(missing)}"


def test_env_example_is_a_production_configuration() -> None:
    env = _env_example()
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert env["DJANGO_DEBUG"] == "false"
    assert env["DJANGO_SECRET_KEY"]
    hosts = env["DJANGO_ALLOWED_HOSTS"].split(",")
    assert "127.0.0.1" in hosts  # the container health checks call 127.0.0.1
    assert env["DATABASE_URL"].startswith("postgres://")
    assert f":{env['POSTGRES_PASSWORD']}@" in env["DATABASE_URL"]
    assert env["DATABASE_URL"].endswith(f"/{env['POSTGRES_DB']}")
    assert env["CELERY_BROKER_URL"].startswith("redis://redis:")
    # throttle and lockout counters shared by every web process
    assert env["CACHE_URL"].startswith("redis://redis:")
    # a bare deployment trusts no forwarded header; docs/operations.md says how to set both behind a proxy
    assert env["NUM_PROXIES"] == "0"
    assert "*" not in env["GUNICORN_FORWARDED_ALLOW_IPS"]


def test_gunicorn_config_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(DEPLOY / "gunicorn.conf.py")
    for key in (
        "GUNICORN_BIND",
        "GUNICORN_WORKERS",
        "GUNICORN_THREADS",
        "GUNICORN_CONTROL_SOCKET",
        "GUNICORN_FORWARDED_ALLOW_IPS",
    ):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PORT", "9123")
    defaults = runpy.run_path(path)
    assert defaults["bind"] == "0.0.0.0:9123"
    assert 1 <= defaults["workers"] <= 5
    assert defaults["worker_class"] == "gthread"
    assert defaults["timeout"] > 25  # longer than the events long-poll
    assert defaults["control_socket_disable"] is True
    # X-Forwarded-* believed from this host only, unless the proxy's address is configured
    assert "*" not in defaults["forwarded_allow_ips"]

    monkeypatch.setenv("GUNICORN_BIND", "unix:/tmp/ramino.sock")
    monkeypatch.setenv("GUNICORN_WORKERS", "7")
    monkeypatch.setenv("GUNICORN_THREADS", "1")
    configured = runpy.run_path(path)
    assert configured["bind"] == "unix:/tmp/ramino.sock"
    assert configured["workers"] == 7
    assert configured["worker_class"] == "sync"


def _run_local() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ramino_run_local", DEPLOY / "run_local.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


def test_run_local_starts_web_worker_and_beat() -> None:
    children = {child.name: child.argv for child in _run_local().build_children(port=8123, reload=False)}
    assert set(children) == {"web", "worker", "bots", "beat"}
    # uvicorn: the site and the live room's sockets on one port (config/asgi.py)
    assert children["web"][1:9] == [
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        "8123",
        "--lifespan",
    ]
    assert "--reload" not in children["web"]
    assert "--reload" in _run_local().build_children(port=8123, reload=True)[0].argv
    assert children["worker"][1:7] == ["-m", "celery", "-A", "config", "worker", "--pool=solo"]
    # The main worker takes the default queue and the notifications', the bots' worker the practice queue only
    # (docs/operations.md).
    assert children["worker"][children["worker"].index("-Q") + 1] == "celery,notifications"
    assert children["bots"][1:7] == ["-m", "celery", "-A", "config", "worker", "--pool=solo"]
    assert children["bots"][children["bots"].index("-Q") + 1] == "practice_bots"
    assert children["beat"][1:6] == ["-m", "celery", "-A", "config", "beat"]
    assert "django_celery_beat.schedulers:DatabaseScheduler" in children["beat"]


def test_dockerfile_runs_gunicorn_as_a_non_root_user() -> None:
    lines = [line.strip() for line in (DEPLOY / "Dockerfile").read_text().splitlines()]
    assert lines[[line.startswith("FROM ") for line in lines].index(True)] == "FROM python:3.11-slim"
    user_lines = [line for line in lines if line.startswith("USER ")]
    assert user_lines and user_lines[-1] not in ("USER root", "USER 0")
    assert any("collectstatic" in line for line in lines)
    assert lines[-1].startswith("CMD [") and "deploy/gunicorn.conf.py" in lines[-1]
    assert "DJANGO_SETTINGS_MODULE=config.settings.production" in "\n".join(lines)


def test_run_local_prints_the_logins_load_demo_creates() -> None:
    from tournaments.management.commands import load_demo

    lines = _run_local().demo_logins()
    assert f"admin   {load_demo.ADMIN[0]} / {load_demo.ADMIN[1]}" in lines
    assert f"staff   {load_demo.STAFF[0]} / {load_demo.STAFF[1]}" in lines
    for name in load_demo.PLAYERS:
        assert f"player  {name} / {load_demo.DEMO_PASSWORD}" in lines


def test_run_local_falls_back_when_load_demo_is_missing(tmp_path: Path) -> None:
    (lines,) = _run_local().demo_logins(tmp_path / "missing.py")
    assert "load_demo" in lines


# --- The image's file set (deploy/Dockerfile), built without Docker -------------------------------------------

# Run a manage.py command as the image does, from its /app: only what the Dockerfile copied is importable from
# the project (the editable install's finder for this checkout is removed; the installed libraries remain).
IMAGE_BOOTSTRAP = """
import os, runpy, sys
sys.meta_path[:] = [f for f in sys.meta_path if not getattr(f, "__module__", "").startswith("__editable__")]
root = sys.argv.pop(1)
sys.path[:] = ["."] + [p for p in sys.path if p and os.path.realpath(p) != root]
sys.argv[0] = "manage.py"
runpy.run_path("manage.py", run_name="__main__")
"""


def _dockerfile_instructions() -> list[tuple[str, list[str]]]:
    """(instruction, arguments) per line of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    found: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            instruction, _, rest = stripped.partition(" ")
            found.append((instruction.upper(), rest.split()))
    return found


def _dockerfile_copies() -> list[tuple[list[str], str]]:
    """The build context's paths each COPY takes and where they land, relative to the image's WORKDIR."""
    copies: list[tuple[list[str], str]] = []
    for instruction, args in _dockerfile_instructions():
        if instruction == "COPY":
            paths = [arg for arg in args if not arg.startswith("--")]
            assert len(paths) >= 2, f"COPY {args}"
            copies.append((paths[:-1], paths[-1]))
    return copies


def _dockerfile_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, args in _dockerfile_instructions():
        if instruction == "ENV":
            env.update({key: value for key, _, value in (arg.partition("=") for arg in args if "=" in arg)})
    return env


def _build_image_files(app: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".env")
    for sources, destination in _dockerfile_copies():
        for source in sources:
            origin = ROOT / source
            target = app / destination
            if destination.endswith("/"):
                target = target / origin.name
            if origin.is_dir():
                shutil.copytree(origin, target, ignore=ignore)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, target)


def _project_apps() -> set[str]:
    """The top-level packages of this repository the server loads: every app INSTALLED_APPS names, and the
    project package that holds the settings, the URLs, the Celery app and wsgi (ROOT_URLCONF's: config)."""
    from django.conf import settings

    apps = {name.split(".")[0] for name in [*settings.INSTALLED_APPS, settings.ROOT_URLCONF]}
    return {name for name in apps if (ROOT / name / "__init__.py").is_file()}


def _manage_in_image(app: Path, *args: str) -> subprocess.CompletedProcess[str]:
    image_env = _dockerfile_env()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_", "CELERY_", "RAMINO_")) and key != "PYTHONPATH"
    }
    env.update(
        DJANGO_SETTINGS_MODULE=image_env["DJANGO_SETTINGS_MODULE"],
        DJANGO_STATIC_ROOT=str(app / "staticfiles"),
        # As the Dockerfile's collectstatic step: no database or broker is contacted.
        DJANGO_SECRET_KEY="image-check-" + "k" * 40 + "-not-a-secret-0123456789",
        DATABASE_URL=f"sqlite:///{app / 'image-check.sqlite3'}",
        CELERY_BROKER_URL="redis://localhost:6379/0",
    )
    return subprocess.run(
        [sys.executable, "-c", IMAGE_BOOTSTRAP, str(ROOT), *args],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_the_image_file_set_passes_check_deploy_and_collects_static(tmp_path: Path) -> None:
    app = tmp_path / "app"
    _build_image_files(app)
    assert _project_apps() <= {path.name for path in app.iterdir()}, "the Dockerfile misses an app"

    checked = _manage_in_image(app, "check", "--deploy")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    issues = set(re.findall(r"\(([a-z_]+\.[EW]\d+)\)", checked.stdout + checked.stderr))
    # HSTS stays off until it is configured on purpose (config/settings/production.py says why).
    assert issues <= {"security.W004"}, checked.stdout + checked.stderr

    collected = _manage_in_image(app, "collectstatic", "--noinput")
    assert collected.returncode == 0, collected.stdout + collected.stderr
    static = app / "staticfiles"
    assert (static / "staticfiles.json").is_file()  # the manifest the production storage serves from
    for package in ("play", "audit"):  # each app's own static files made it into the image
        assert list((static / package).rglob("*.js")) or list((static / package).rglob("*.css")), package


def test_the_image_file_set_misses_nothing_the_check_would_miss(tmp_path: Path) -> None:
    """The check above runs the image's files, not this checkout's: an app left out fails it."""
    app = tmp_path / "app"
    _build_image_files(app)
    shutil.rmtree(app / "audit")
    checked = _manage_in_image(app, "check", "--deploy")
    assert checked.returncode != 0
    assert "No module named 'audit'" in checked.stderr


def test_every_installed_project_app_is_packaged_copied_and_architecture_checked() -> None:
    from tests import test_architecture

    apps = _project_apps()
    # the scan works: the project package and every app of ours
    assert {"config", "api", "accounts", "security", "admin_confirm"} <= apps
    assert {"ledger", "tournaments", "play", "audit"} <= apps
    include = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"][
        "include"
    ]
    # setuptools matches `include` with fnmatch, on every package and subpackage
    unpackaged = {app for app in apps if not any(fnmatch.fnmatchcase(app, pattern) for pattern in include)}
    assert not unpackaged, f"pyproject.toml's packages.find omits {sorted(unpackaged)}"
    copied = {Path(destination).name for _, destination in _dockerfile_copies()}
    assert not apps - copied, f"deploy/Dockerfile does not copy {sorted(apps - copied)}"
    assert not apps - set(test_architecture.PACKAGES), "tests/test_architecture.py does not read every app"


def test_run_local_makes_a_vapid_pair_once(tmp_path: Path) -> None:
    env = {"RAMINO_VAR_DIR": str(tmp_path)}
    _run_local().ensure_vapid(env)
    first = (env["RAMINO_VAPID_PRIVATE_KEY"], env["RAMINO_VAPID_PUBLIC_KEY"])
    assert all(first) and (tmp_path / "vapid-dev.json").stat().st_mode & 0o077 == 0
    again = {"RAMINO_VAR_DIR": str(tmp_path)}
    _run_local().ensure_vapid(again)
    assert (again["RAMINO_VAPID_PRIVATE_KEY"], again["RAMINO_VAPID_PUBLIC_KEY"]) == first
    named = {"RAMINO_VAR_DIR": str(tmp_path), "RAMINO_VAPID_PRIVATE_KEY": "a", "RAMINO_VAPID_PUBLIC_KEY": "b"}
    _run_local().ensure_vapid(named)
    assert (named["RAMINO_VAPID_PRIVATE_KEY"], named["RAMINO_VAPID_PUBLIC_KEY"]) == ("a", "b")

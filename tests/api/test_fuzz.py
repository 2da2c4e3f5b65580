"""Schemathesis against a live server: every operation of the published schema, fuzzed with every check
(`--checks all`: no 5xx, statuses, content types, headers and bodies as documented, data the schema allows
accepted and data it forbids refused, ...), as a player, a staff member and an admin of a seeded world."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ledger.models import Transfer
from ledger.services import accounts, reconciliation
from tests.api.fuzz_hooks import KNOWN_REFUSALS
from tests.ledger.utils import assert_reconciled, funded_wallet, make_user
from tests.tournaments.single_table.helpers import new_tournament
from tournaments.live.models import Game
from tournaments.live.rounds import start as round_start
from tournaments.live.tables import services as tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-for-tests-1"
# Who calls what (tests/api/fuzz_hooks.py): the seeded user of each role.
ROLES = {"player": "ann", "staff": "staff", "admin": "admin"}


def seed() -> dict[str, Any]:
    users = {
        "ann": make_user("ann"),
        "bob": make_user("bob"),
        "staff": make_user("auditor", is_staff=True),
        "admin": make_user("root", is_staff=True, is_superuser=True),
    }
    for name in ("ann", "bob"):
        funded_wallet(users[name], 50_000)
    table = tables.create_table(
        user=users["admin"],
        game="rummy500",
        options={"turn_seconds": 600},
        seats=4,
        pcr=1,
        min_buy_in=100,
        max_buy_in=2000,
    )
    for name in ("ann", "bob"):
        tables.sit(user=users[name], table_id=table.pk, buy_in=300)
    game = Game.objects.get(table=table)
    round_start.start_round(game_id=game.pk)
    tournament = new_tournament(users["admin"], max_entrants=4)
    reconciliation.run_reconciliation(trigger="manual")
    return {
        "users": users,
        "table": table.pk,
        "game": game.pk,
        "tournament": tournament.pk,
        "account": accounts.get_wallet(user=users["ann"]).pk,
        "transfer": Transfer.objects.order_by("id").values_list("pk", flat=True)[0],
    }


def config_file(world: dict[str, Any], path: Path) -> Path:
    """Path parameters pinned to the seeded objects (random ids would only find 404s)."""
    lines = [
        # 422 is "well-formed but refused by the rules" (docs/api.md): no schema says whether the wallet
        # can pay or the move is legal now.
        "[checks.positive_data_acceptance]",
        'expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]',
        "",
        # A NUL character or a lone surrogate anywhere in a request is refused at the boundary, 400 (docs/api.md;
        # tests/api/test_boundary.py): a rule over every string, which JSON Schema would need a pattern on
        # each to say. The fuzzer is told so instead.
        "[generation]",
        "allow-x00 = false",
        'codec = "utf-8"',
        "",
        "[parameters]",
        f'"path.table_id" = {world["table"]}',
        f'"path.game_id" = {world["game"]}',
        f'"path.tournament_id" = {world["tournament"]}',
        "",
        "[[operations]]",
        'include-path = "/api/v1/ledger/accounts/{id}/statement/"',
        f'parameters = {{ "path.id" = {world["account"]} }}',
        "",
        "[[operations]]",
        'include-path = "/api/v1/ledger/transfers/{id}/"',
        f'parameters = {{ "path.id" = {world["transfer"]} }}',
    ]
    for operation in KNOWN_REFUSALS:
        method, template = operation.split(" ")
        lines += [
            "",
            "[[operations]]",
            f'include-method = "{method}"',
            f'include-path = "{template}"',
            "[operations.checks.positive_data_acceptance]",
            'expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "422", "429", "5xx"]',
        ]
    path.write_text("\n".join(lines) + "\n")
    return path


def run_schemathesis(
    base: str, world: dict[str, Any], config: Path, out: Path, *, max_examples: int
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "tests.api.fuzz_hooks",
        "RAMINO_FUZZ_BASE_URL": base,
        "RAMINO_FUZZ_USERS": json.dumps(
            {role: world["users"][name].username for role, name in ROLES.items()}
        ),
        "RAMINO_FUZZ_PASSWORD": PASSWORD,
        "PYTHONPATH": str(ROOT),
    }
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(config),
        "run",
        f"{base}/api/schema/?format=json",
        "--checks",
        "all",
        "--mode",
        "all",
        "--phases",
        "examples,coverage,fuzzing",
        "--max-examples",
        str(max_examples),
        "--seed",
        "1",
        "--workers",
        "1",
        "--no-color",
        "--generation-database",
        "none",
        "--request-timeout",
        "30",
        "--continue-on-failure",
    ]
    started = time.monotonic()
    # A hang guard: the run took 593 s inside a full `make test` on a slow day (140 s alone).
    result = subprocess.run(command, cwd=config.parent, env=env, capture_output=True, text=True, timeout=1500)
    out.write_text(result.stdout + result.stderr + f"\n(in {time.monotonic() - started:.0f} s)\n")
    return result


@pytest.mark.timeout(1600)
def test_schemathesis_finds_nothing(live_server: Any, settings: Any, tmp_path: Path) -> None:
    # The long-polls answer at once: the fuzzer tests their parameters, not their waiting.
    settings.RAMINO_EVENTS_MAX_WAIT_SECONDS = 0
    world = seed()
    out = ROOT / "var" / "fuzz-report.txt"
    result = run_schemathesis(
        live_server.url, world, config_file(world, tmp_path / "schemathesis.toml"), out, max_examples=5
    )
    assert_reconciled()
    assert result.returncode == 0, f"schemathesis found failures; see {out}"


# --- the harness itself --------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=False)
def test_each_operation_is_called_by_its_role() -> None:
    from tests.api.fuzz_hooks import role

    assert role("post", "/api/v1/ledger/adjustments/") == "admin"
    assert role("post", "/api/v1/tournaments/{tournament_id}/cancel/") == "admin"
    assert role("post", "/api/v1/tables/") == "admin"
    assert role("get", "/api/v1/tables/") == "player"
    assert role("get", "/api/v1/ledger/transfers/") == "staff"
    assert role("get", "/api/v1/tournaments/{tournament_id}/payouts/") == "staff"
    assert role("post", "/api/v1/games/{game_id}/moves/") == "player"


@pytest.mark.django_db(transaction=False)
def test_a_schema_valid_refusal_passes_only_with_a_known_code() -> None:
    """Not vacuous: the exemption of `positive_data_acceptance` holds each 400 to its documented codes."""
    from types import SimpleNamespace

    from tests.api.fuzz_hooks import positive_refusals_are_known

    def case(method: str, path: str, positive: bool = True) -> Any:
        mode = SimpleNamespace(is_positive=positive)
        return SimpleNamespace(
            meta=SimpleNamespace(generation=SimpleNamespace(mode=mode)),
            operation=SimpleNamespace(method=method, path=path),
        )

    def answer(code: str, **details: Any) -> Any:
        body = {"error": {"code": code, "message": "", "details": details}}
        return SimpleNamespace(status_code=400, json=lambda: body)

    cursor = answer("request.invalid_parameter", parameter="cursor")
    assert positive_refusals_are_known(None, cursor, case("GET", "/api/v1/ledger/transfers/")) is None
    with pytest.raises(AssertionError, match="refused for"):
        page_size = answer("request.invalid_parameter", parameter="page_size")
        positive_refusals_are_known(None, page_size, case("GET", "/api/v1/ledger/transfers/"))
    with pytest.raises(AssertionError, match="refused with"):
        positive_refusals_are_known(
            None, answer("move.malformed"), case("POST", "/api/v1/games/{game_id}/moves/")
        )
    # Negative data, and operations without an exemption, are left to the built-in checks.
    assert positive_refusals_are_known(None, answer("x"), case("GET", "/api/v1/tables/")) is None
    assert (
        positive_refusals_are_known(None, answer("x"), case("POST", "/api/v1/tables/", positive=False))
        is None
    )

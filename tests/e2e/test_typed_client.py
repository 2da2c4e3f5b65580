"""A typed client generated from the published schema (openapi-python-client, into a temporary folder at test
time) plays a round of a ring table over real HTTP, against a live server and a real Celery worker: what a
client developer gets from `/api/schema/` is enough to register, fund, create a table, sit, play a round to its
settlement and read it back, with every body parsed into the generated models (a move's `type` included)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
import uuid
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import requests
from django.contrib.auth import get_user_model

from tests.ledger.utils import assert_reconciled
from tournaments import engine
from tournaments.engine import bots as engine_bots
from tournaments.live.models import Game, Round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e, pytest.mark.worker]

PACKAGE = "ramino_client"
PLAYERS = ("ann", "bob")
BUY_IN = 1000


def generate_client(base: str, folder: Path) -> Any:
    """The schema the live server publishes, turned into the package `ramino_client` under `folder`."""
    schema = folder / "openapi.json"
    response = requests.get(f"{base}/api/schema/?format=json", timeout=30)
    assert response.status_code == 200
    schema.write_bytes(response.content)
    bin_dir = Path(sys.executable).parent
    # The generator formats its output with ruff, found on PATH (the virtualenv's).
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(schema),
            "--meta",
            "none",
            "--output-path",
            str(folder / PACKAGE),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # Every piece of the schema made it into the client: the generator warns about any it had to skip.
    assert "Warning" not in output, output
    sys.path.insert(0, str(folder))
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]
    return importlib.import_module(PACKAGE)


def api(module: str) -> Any:
    """An operation's module of the generated client, e.g. `v1.v1_games_retrieve`."""
    return importlib.import_module(f"{PACKAGE}.api.{module}")


def model(name: str) -> Any:
    return getattr(importlib.import_module(f"{PACKAGE}.models"), name)


def parsed(response: Any, status: int, expected: str) -> Any:
    """The answer's body as the generated model `expected`, checked to be that status."""
    assert response.status_code == status, (response.status_code, response.content)
    assert type(response.parsed).__name__ == expected, response.parsed
    return response.parsed


def login(client_module: Any, base: str, username: str, password: str) -> Any:
    anonymous = client_module.Client(base_url=base, timeout=40)
    token = parsed(
        api("v1.v1_auth_token_create").sync_detailed(
            client=anonymous, body=model("TokenInputRequest")(username=username, password=password)
        ),
        200,
        "TokenOutput",
    )
    return client_module.AuthenticatedClient(base_url=base, token=token.token, prefix="Token", timeout=40)


def move_request(move: dict[str, Any], version: int) -> Any:
    """The engine's move as the generated request model of its type (`lay_off` -> `LayOffMoveRequest`)."""
    name = "".join(part.capitalize() for part in move["type"].split("_")) + "MoveRequest"
    return model(name).from_dict({**move, "expected_version": version})


def test_a_generated_client_plays_a_round(
    live_server: Any, celery_worker_process: Any, settings: Any, tmp_path: Path
) -> None:
    settings.RAMINO_NEXT_ROUND_DELAY_SECONDS = 0.5
    base = live_server.url
    client_module = generate_client(base, tmp_path)
    anonymous = client_module.Client(base_url=base, timeout=40)

    players = {}
    for name in PLAYERS:
        password = f"pw-{uuid.uuid4().hex}"
        registered = api("v1.v1_auth_register_create").sync_detailed(
            client=anonymous,
            body=model("RegisterInputRequest")(
                username=name, password=password, date_of_birth=date(1990, 1, 1)
            ),
        )
        assert parsed(registered, 201, "RegisterOutput").username == name
        players[name] = login(client_module, base, name, password)
    get_user_model().objects.create_superuser("boss", password="boss-pw-123456")
    admin = login(client_module, base, "boss", "boss-pw-123456")

    for name in PLAYERS:
        credit = api("ledger.v1_ledger_adjustments_create").sync_detailed(
            client=admin,
            body=model("AdjustmentInputRequest")(username=name, amount=5_000, reason="typed client"),
            idempotency_key=f"typed-{name}",
        )
        assert parsed(credit, 201, "Transfer").kind == model("TransferKindEnum").ADJUSTMENT
    created = api("v1.v1_tables_create").sync_detailed(
        client=admin,
        body=model("TableCreateRequest")(
            game=model("GameEnum").RUMMY500,
            seats=2,
            pcr=1,
            min_buy_in=100,
            max_buy_in=2000,
            options=model("TableCreateRequestOptions").from_dict({"turn_seconds": 30}),
        ),
    )
    table = parsed(created, 201, "Table")
    assert table.status == model("TableStatusEnum").OPEN
    for name, client in players.items():
        sat = api("v1.v1_tables_sit_create").sync_detailed(
            client=client,
            table_id=table.id,
            body=model("BuyInRequest")(buy_in=BUY_IN),
            idempotency_key=uuid.uuid4().hex,
        )
        assert name in [p.username for p in parsed(sat, 200, "Table").players]
    game_id = table.current_game
    assert isinstance(game_id, int)

    moves_seen: set[str] = set()
    deadline = time.monotonic() + 300
    finished: list[Any] = []
    while time.monotonic() < deadline and not finished:
        acted = False
        for name, client in players.items():
            view = parsed(
                api("v1.v1_games_retrieve").sync_detailed(client=client, game_id=game_id), 200, "Game"
            )
            if not view.legal_moves:
                continue
            assert all(isinstance(m.type_.value, str) for m in view.legal_moves)
            game = Game.objects.get(pk=game_id)
            if game.version != view.version or game.state is None:
                continue
            move = engine_bots.greedy_move(engine.state_from_dict(game.state), name)
            answer = api("v1.v1_games_moves_create").sync_detailed(
                client=client,
                game_id=game_id,
                body=move_request(move, view.version),
                idempotency_key=uuid.uuid4().hex,
            )
            if answer.status_code == 409:  # the clock moved first
                continue
            result = parsed(answer, 200, "MoveResult")
            for event in result.events:
                if type(event).__name__ == "MoveEvent":
                    moves_seen.add(event.move.type_.value)
            acted = True
        rounds = parsed(
            api("v1.v1_games_rounds_list").sync_detailed(client=players["ann"], game_id=game_id),
            200,
            "PaginatedRoundList",
        )
        finished = [r for r in rounds.results if r.ended_at is not None and r.settled]
        if not acted and not finished:
            events = api("v1.v1_games_events_retrieve").sync_detailed(
                client=players["ann"], game_id=game_id, after=0, wait=2
            )
            parsed(events, 200, "Events")
    assert finished, "no round was played to its settlement"
    assert {"draw", "discard"} <= moves_seen, moves_seen
    settled = finished[0]
    assert settled.deck is not None and settled.salt is not None
    # The typed rows say what the ledger recorded for the round (`from` is a keyword: `from_`).
    recorded = Round.objects.get(game_id=game_id, number=settled.number).transfers
    assert [t.to_dict() for t in settled.transfers] == recorded
    assert all(t.kind == model("TransferKindEnum").SETTLEMENT for t in settled.transfers)

    for client in players.values():
        left = api("v1.v1_tables_leave_create").sync_detailed(
            client=client, table_id=table.id, idempotency_key=uuid.uuid4().hex
        )
        assert left.status_code == 200, left.content
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        seated = parsed(
            api("v1.v1_tables_retrieve").sync_detailed(client=admin, table_id=table.id), 200, "Table"
        ).players
        if not seated:
            break
        time.sleep(0.5)
    wallets = [
        parsed(api("ledger.v1_wallet_retrieve").sync_detailed(client=c), 200, "Wallet").balance
        for c in players.values()
    ]
    assert sum(wallets) == 5_000 * len(PLAYERS)
    assert_reconciled()

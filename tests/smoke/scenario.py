"""What the smoke test does over HTTP: new players register, are funded by the demo admin, sit at a
table and play rounds to settlement, moved by the engine's greedy bot; then they leave. One of them plays a round
at a practice table against the worker's bots (`practice`). Then a multi-table
tournament is played to its payout (`multi`), a satellite chain into the demo's tournament (`satellite`), a
rebuy-and-add-on knockout tournament and final-table deals (`formats`), and a full reconciliation run on the
worker must find the ledger clean with every chip accounted for."""

from __future__ import annotations

import time
import urllib.request
import uuid
from collections import Counter
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from tournaments.engine import state_from_dict
from tournaments.engine.bots import greedy_move

from . import formats, multi, practice, satellite, sockets
from .api import Client, expect, fund, game_state, register
from .stack import Stack, StackFailed

PLAYERS = 3
FUNDING = 5_000
BUY_IN = 1_000
ROUNDS = 3
PLAY_SECONDS = 300.0
LEAVE_SECONDS = 120.0
RECONCILE_SECONDS = 60.0
TABLE = {
    "game": "rummy500",
    # short clocks: a seat left during a round is played out by the worker within seconds
    "options": {"turn_seconds": 10, "time_bank_seconds": 0},
    "seats": PLAYERS,
    "pcr": 1,
    "min_buy_in": 100,
    "max_buy_in": 5_000,
}


def run(stack: Stack, log: Any) -> None:
    logins = stack.logins()
    admin = Client(stack.base, logins["admin"][0])
    admin.login(logins["admin"][1])
    staff = Client(stack.base, logins["staff"][0])
    staff.login(logins["staff"][1])

    players = [register(stack.base, f"smoke-{uuid.uuid4().hex[:8]}") for _ in range(PLAYERS)]
    for player in players:
        fund(admin, player, FUNDING)
    log(f"registered and funded {', '.join(p.username for p in players)}")

    table = admin.call("POST", "/tables/", expect=(201,), json=TABLE)
    for player in players:
        player.call("POST", f"/tables/{table['id']}/sit/", json={"buy_in": BUY_IN})
    game_id = table["current_game"]
    follower = sockets.Follower(stack.base, players[1], game_id)
    follower.start()
    moves = _play(stack, players, staff, game_id)
    log(f"table #{table['id']}: {ROUNDS} rounds settled in {moves} moves")
    log(
        f"{players[1].username}'s socket received all {follower.stop_and_check()} events, once each, in order"
    )

    for player in players:
        player.call("POST", f"/tables/{table['id']}/leave/")
    _wait_until_empty(stack, admin, table["id"])
    log("everyone left; stacks cashed out")

    rounds = [r for r in players[0].call("GET", f"/games/{game_id}/rounds/")["results"] if r["ended_at"]]
    expect(len(rounds) >= ROUNDS and all(r["settled"] for r in rounds), f"rounds not settled: {rounds}")
    _check_settlements(staff, table["id"], rounds)
    wallets = {p.username: p.call("GET", "/wallet/")["balance"] for p in players}
    welcome = sum(p.welcome_chips for p in players)
    expect(sum(wallets.values()) == FUNDING * PLAYERS + welcome, f"chips not conserved: {wallets}")
    log(f"settlements match the rounds' transfers; wallets {wallets}")
    practice.run(stack, log, player=players[0])
    multi.run(stack, log, admin=admin, staff=staff)
    satellite.run(stack, log, admin=admin, staff=staff)
    formats.run(stack, log, admin=admin, staff=staff)
    run_id = _reconcile(stack, staff)
    log(f"reconciliation run #{run_id} on the worker: ok")
    _check_metrics(stack)
    log("/metrics adds up the web process's and the worker's counts")


def _play(stack: Stack, players: list[Client], staff: Client, game_id: int) -> int:
    """Every player whose view offers legal moves plays the greedy bot's choice, read from the game's
    full state (the bot needs every hand; the database file is opened read-only) at the version the
    view showed."""
    moves = 0
    after = 0
    deadline = time.monotonic() + PLAY_SECONDS
    while _settled_rounds(players[0], game_id) < ROUNDS:
        if time.monotonic() > deadline:
            raise StackFailed(f"{ROUNDS} rounds were not settled within {PLAY_SECONDS:.0f}s ({moves} moves)")
        stack.check_alive()
        acted = False
        for player in players:
            view = player.call("GET", f"/games/{game_id}/")
            if not view.get("legal_moves"):
                continue
            version, state = game_state(stack.database, game_id)
            if version != view["version"] or state is None:
                continue
            move = greedy_move(state_from_dict(state), player.username)
            request: dict[str, Any] = {
                "json": {**move, "expected_version": view["version"]},
                "headers": {"Idempotency-Key": uuid.uuid4().hex},
            }
            # 409: a turn clock or another player moved first
            answer = player.call("POST", f"/games/{game_id}/moves/", expect=(200, 409), **request)
            if "version" in answer:
                if moves == 0:
                    # a retried move answers the same and changes nothing (the move's replay path)
                    again = player.call("POST", f"/games/{game_id}/moves/", **request)
                    expect(again == answer, f"a replayed move answered {again}, first {answer}")
                moves += 1
                acted = True
        if not acted:
            # between rounds: a spectator's view (staff) too, then the first player long-polls
            expect(staff.call("GET", f"/games/{game_id}/").get("hand") is None, "staff saw a hand")
            polled = players[0].call("GET", f"/games/{game_id}/events/?after={after}&wait=5")
            after = polled["next_after"]
    return moves


def _settled_rounds(client: Client, game_id: int) -> int:
    return sum(1 for r in client.call("GET", f"/games/{game_id}/rounds/")["results"] if r["settled"])


def _wait_until_empty(stack: Stack, admin: Client, table_id: int) -> None:
    deadline = time.monotonic() + LEAVE_SECONDS
    while admin.call("GET", f"/tables/{table_id}/")["players"]:
        if time.monotonic() > deadline:
            raise StackFailed(f"the players were not cashed out within {LEAVE_SECONDS:.0f}s")
        stack.check_alive()
        time.sleep(0.5)


def _check_settlements(staff: Client, table_id: int, rounds: list[dict[str, Any]]) -> None:
    """One settlement transfer per round that moved chips, in round order, each moving every player's
    seat stack by that round's net (the round's `transfers`, from the rounds API)."""
    posted = staff.call("GET", f"/ledger/transfers/?table={table_id}&kind=settlement")["results"]
    posted.sort(key=lambda transfer: transfer["id"])
    paying = [r for r in rounds if r["transfers"]]
    expect(paying != [], "no round moved any chips")
    expect(len(posted) == len(paying), f"{len(posted)} settlement transfers for {len(paying)} rounds")
    for round_, transfer in zip(paying, posted, strict=True):
        expected: Counter[str] = Counter()
        for row in round_["transfers"]:
            expected[row["from"]] -= row["amount"]
            expected[row["to"]] += row["amount"]
        actual: Counter[str] = Counter()
        for entry in transfer["entries"]:
            expect(entry["account_kind"] == "seat_stack", f"settlement entry off the seats: {entry}")
            actual[entry["user"]] += entry["amount"]
        expect(
            {k: v for k, v in actual.items() if v} == {k: v for k, v in expected.items() if v},
            f"round {round_['number']}: settled {dict(actual)}, the round says {dict(expected)}",
        )


def _reconcile(stack: Stack, staff: Client) -> int:
    """A full reconciliation queued by staff and run by the worker, after the last chip moved: clean, and
    what `GET /ledger/reconciliation/` then serves, not stale."""
    run_id = int(staff.call("POST", "/ledger/reconciliation/runs/", expect=(202,))["id"])
    deadline = time.monotonic() + RECONCILE_SECONDS
    while True:
        runs = staff.call("GET", "/ledger/reconciliation/runs/")["results"]
        run = next((r for r in runs if r["id"] == run_id), None)
        expect(run is not None, f"reconciliation run {run_id} is not listed: {runs}")
        assert run is not None
        if run["status"] in ("finished", "failed"):
            break
        if time.monotonic() > deadline:
            raise StackFailed(
                f"reconciliation run {run_id} still {run['status']} after {RECONCILE_SECONDS:.0f}s"
            )
        stack.check_alive()
        time.sleep(0.5)
    expect(
        run["status"] == "finished" and run["ok"] is True and run["problems"] == [], f"reconciliation: {run}"
    )
    report = staff.call("GET", "/ledger/reconciliation/")
    expect(
        report["run"] == run_id and report["ok"] is True and report["stale"] is False,
        f"reconciliation served: {report}",
    )
    return run_id


def _check_metrics(stack: Stack) -> None:
    """`make run`'s three processes share one multiprocess folder: the dev server's /metrics (loopback) shows the
    rounds, the tournament's events and the worker's tasks (docs/operations.md, "Metrics")."""
    with urllib.request.urlopen(f"{stack.base}/metrics", timeout=30) as answer:
        text = answer.read().decode()
    totals: Counter[str] = Counter()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "ramino_celery_task_run_seconds_count":
                totals[f"task {sample.labels['task']}"] += int(sample.value)
            else:
                totals[sample.name] += int(sample.value) if sample.value != float("inf") else 0
    expect(totals["ramino_rounds_settled_total"] >= ROUNDS, f"rounds settled: {totals}")
    expect(totals["ramino_tournament_events_total"] > 0, f"tournament events: {totals}")
    expect(totals["task ledger.perform_reconciliation_run"] >= 1, f"the worker's tasks: {totals}")
    expect(totals["ramino_reconciliation_ok"] == 1, f"reconciliation gauge: {totals}")

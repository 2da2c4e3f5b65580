"""The smoke test's practice table on the embedded default: a player starts one against two bots, plays a
round to its end while the worker deals and moves the bots (SQLite, filesystem broker), then leaves, and the
table closes; the wallet never moves and the table is never listed."""

from __future__ import annotations

import time
from typing import Any

from tournaments.engine import state_from_dict
from tournaments.engine.bots import greedy_move

from .api import Client, expect, game_state
from .stack import Stack, StackFailed

PLAY_SECONDS = 180.0
CLOSE_SECONDS = 60.0


def run(stack: Stack, log: Any, *, player: Client) -> None:
    wallet = player.call("GET", "/wallet/")["balance"]
    started = player.call(
        "POST", "/practice/", expect=(201,), json={"game": "rummy500", "bots": 2, "level": "medium"}
    )
    table_id, game_id = started["table"], started["game"]
    listed = player.call("GET", "/tables/")["results"]
    expect(table_id not in [t["id"] for t in listed], f"practice table {table_id} is listed")
    moves = _play_one_round(stack, player, game_id)
    rounds = player.call("GET", f"/games/{game_id}/rounds/")["results"]
    expect(
        rounds[0]["settled"] and rounds[0]["transfers"] == [], f"a practice round moved chips: {rounds[0]}"
    )
    log(f"practice table #{table_id}: a round against two bots played out in {moves} moves of the player's")
    player.call("POST", f"/tables/{table_id}/leave/")
    deadline = time.monotonic() + CLOSE_SECONDS
    while player.call("GET", f"/tables/{table_id}/")["status"] != "closed":
        if time.monotonic() > deadline:
            raise StackFailed(f"practice table {table_id} did not close after its player left")
        stack.check_alive()
        time.sleep(0.5)
    after = player.call("GET", "/wallet/")["balance"]
    expect(after == wallet, f"practice moved the wallet: {wallet} -> {after}")
    log("left the practice table: it closed, the wallet untouched")


def _play_one_round(stack: Stack, player: Client, game_id: int) -> int:
    moves = 0
    deadline = time.monotonic() + PLAY_SECONDS
    while True:
        if time.monotonic() > deadline:
            raise StackFailed(f"the practice round did not end within {PLAY_SECONDS:.0f}s ({moves} moves)")
        stack.check_alive()
        view = player.call("GET", f"/games/{game_id}/")
        if view["round"] == 1 and view["status"] != "playing":
            return moves
        if not view.get("legal_moves"):
            time.sleep(0.1)
            continue
        version, state = game_state(stack.database, game_id)
        if version != view["version"] or state is None:
            continue
        move = greedy_move(state_from_dict(state), player.username)
        answer = player.call(
            "POST", f"/games/{game_id}/moves/", expect=(200, 409), json={**move, "expected_version": version}
        )
        moves += "version" in answer

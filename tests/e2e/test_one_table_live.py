"""A quick game followed live over HTTP with a real worker (docs/api.md "Staying live"): the players learn of
the start from `?registered=true` (`my_table`), and a watcher long-polling the tournament's events is woken by each
round's `round_result` (recorded by the worker's after-round job) and by `finished`, whose places and prizes
are the standings'."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.e2e.players import make_client, play_until_finished
from tests.ledger.utils import assert_reconciled

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e, pytest.mark.worker]

MINE = "/tournaments/?registered=true&status=registering,running,paused"


def test_a_quick_game_is_followed_live_round_by_round(live_server: Any, celery_worker_process: Any) -> None:
    base = live_server.url
    admin = make_client(base, "boss", is_staff=True, is_superuser=True)
    watcher = make_client(base, "watcher")
    players = {name: make_client(base, name) for name in ("ann", "bob")}
    for name in players:
        credit = admin.call(
            "POST", "/ledger/adjustments/", json={"username": name, "amount": 1000, "reason": "e2e"}
        )
        assert credit.status_code in (200, 201), credit.text
    created = admin.call(
        "POST",
        "/tournaments/",
        json={
            "name": "live quick game",
            "kind": "quick",
            "game": "rummy500",
            "options": {"turn_seconds": 20, "time_bank_seconds": 10},
            "buy_in": 100,
            "max_entrants": 2,
            "rounds": 2,
            "payouts": [70, 30],
        },
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    ann = players["ann"]
    assert ann.call("POST", f"/tournaments/{tid}/register/").status_code == 201
    registered = ann.call("GET", MINE)
    (row,) = registered.json()["results"]
    assert row["status"] == "registering" and row["my_table"] is None
    etag = registered.headers["ETag"]
    assert ann.call("GET", MINE, headers={"If-None-Match": etag}).status_code == 304
    assert players["bob"].call("POST", f"/tournaments/{tid}/register/").status_code == 201
    started = ann.call("GET", MINE, headers={"If-None-Match": etag})
    assert started.status_code == 200
    (row,) = started.json()["results"]
    table = watcher.call("GET", f"/tournaments/{tid}/tables/").json()["results"][0]["table"]
    assert row["status"] == "running" and row["my_table"] == table

    version = watcher.call("GET", f"/tournaments/{tid}/").json()["version"]
    seen: list[dict[str, Any]] = []
    play = threading.Thread(
        target=lambda: seen.append({"result": play_until_finished(tid, players, timeout=300)})
    )
    play.start()
    kinds: list[str] = []
    try:
        while "finished" not in kinds:
            page = watcher.call("GET", f"/tournaments/{tid}/events/?after={version}&wait=25").json()
            kinds += [e["kind"] for e in page["events"]]
            for event in page["events"]:
                if event["kind"] == "round_result":
                    seen.append(event["data"])
                if event["kind"] == "finished":
                    seen.append({"finished": event["data"]})
            version = page["next_after"]
            assert play.is_alive() or "finished" in kinds or page["events"], (
                "the game ended without its events"
            )
    finally:
        play.join(timeout=320)
    results = [s for s in seen if "round" in s]
    main = [r for r in results if not r["redeal"] and not r["tiebreak"]]
    assert len(main) == 2 and [r["round"] for r in results] == sorted(r["round"] for r in results)
    assert kinds.count("round_result") == len(results) and kinds[-1] == "finished"
    standings = {
        s["username"]: s for s in watcher.call("GET", f"/tournaments/{tid}/standings/").json()["results"]
    }
    last = results[-1]
    # The main rounds' totals (a tie-breaker's points are its own): the standings' totals.
    assert last["totals"] == {name: s["total"] for name, s in standings.items()}
    (finished,) = [s["finished"] for s in seen if "finished" in s]
    assert finished["places"] == {name: s["place"] for name, s in standings.items()}
    assert finished["prizes"] == {name: s["prize"] for name, s in standings.items()}
    assert sum(finished["prizes"].values()) == 200
    assert ann.call("GET", MINE).json()["results"] == []  # over: no longer among ann's live tournaments
    assert_reconciled()

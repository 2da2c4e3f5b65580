"""The read API against the real runtime: a 12-entrant multi-table tournament with instant rounds, driven
in-process through its task bodies (`driver.drive`); after every table's round end the lobby's reads
agree with the ledger and the seats (standings chips, tables, the event log), and at the end the standings,
places, prizes and the payout report add up."""

from __future__ import annotations

from typing import Any

import pytest

from devtools import multi_table_driver as driver
from tests.ledger.utils import assert_reconciled
from tests.tournaments.multi_table.helpers import chips_conserved, new_multi, register_all
from tournaments.multi_table.task_names import TABLE_ROUND_OVER
from tournaments.tournament.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def _all(client: Any, url: str) -> list[dict[str, Any]]:
    answer = client.get(f"{url}?page_size=500")
    assert answer.status_code == 200, answer.content
    return list(answer.json()["results"])


def test_the_lobby_reads_follow_a_tournament_to_its_end(
    admin_user: Any, make_player: Any, client_for: Any, staff_user: Any
) -> None:
    t = new_multi(admin_user, instant_rounds=True, payouts=[60, 40])
    register_all(t, [make_player() for _ in range(12)])
    anyone = client_for(None)
    base = f"/api/v1/tournaments/{t.pk}"
    checks = {"count": 0}

    def check(name: str, _args: list[object]) -> None:
        if name != TABLE_ROUND_OVER:
            return
        checks["count"] += 1
        in_play = chips_conserved(t)
        standings = _all(anyone, f"{base}/standings/")
        tables = _all(anyone, f"{base}/tables/")
        playing = [s for s in standings if s["status"] == "playing"]
        assert sum(s["chips"] for s in playing) == in_play
        assert [s["chips"] for s in playing] == sorted((s["chips"] for s in playing), reverse=True)
        assert standings[: len(playing)] == playing  # players still in first
        seats = {p["username"]: (row["table"], p["chips"]) for row in tables for p in row["players"]}
        if t.status != TournamentStatus.FINISHED:
            assert {s["username"]: (s["table"], s["chips"]) for s in playing} == seats
        assert all(row["level"] >= 1 and row["pcr"] in t.pcr_schedule for row in tables)
        events = anyone.get(f"{base}/events/").json()
        t.refresh_from_db()
        assert events["version"] == t.version
        assert [e["version"] for e in events["events"]] == list(range(1, t.version + 1))
        row = anyone.get(f"{base}/").json()
        # the level read is the structure's: past its last level, the last (issue 31)
        level = min(t.level, len(t.pcr_schedule))
        assert (row["version"], row["level"], row["entrants"]) == (t.version, level, 12)

    driver.drive(tournament_id=t.pk, after_message=check)
    t = Tournament.objects.get(pk=t.pk)
    assert t.status == TournamentStatus.FINISHED and checks["count"] > 0
    standings = _all(anyone, f"{base}/standings/")
    assert sorted(s["place"] for s in standings if s["place"] == 1) == [1]
    assert all(s["place"] is not None and s["table"] is None for s in standings)
    # the winner keeps the chips they finished with (all of them), the others none (issue 31)
    assert [s["chips"] for s in standings] == [12 * (t.starting_stack or 0)] + [0] * 11
    assert [s["place"] for s in standings] == sorted(s["place"] for s in standings)
    assert sum(s["prize"] for s in standings) == 1200
    assert _all(anyone, f"{base}/tables/") == []
    events = anyone.get(f"{base}/events/").json()["events"]
    assert events[0]["kind"] == "started" and events[-1]["kind"] == "finished"
    report = client_for(staff_user).get(f"{base}/payouts/").json()
    assert (report["entrants"], report["buy_ins"], report["fees"], report["prize_pool"]) == (
        12,
        1200,
        120,
        1200,
    )
    assert sum(p["amount"] for p in report["prizes"]) == 1200
    assert report["prizes"][0]["place"] == 1
    assert_reconciled()

"""Live play over HTTP: the round starts, views are redacted, moves are checked, rounds are settled."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tests.tournaments.live.helpers import expected_transfers, hidden_cards, leaked, simple_move, stacks
from tournaments.engine import verify_deal
from tournaments.live.clocks import runs as clock_runs
from tournaments.live.models import Game, GameStatus, MoveLog, Round, Seat, SeatStatus
from tournaments.live.rounds import start as round_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def ring(make_table: Any, make_player: Any, client_for: Any) -> dict[str, Any]:
    """A public table with ann and bob seated and round 1 dealt; cid is a bystander."""
    table = make_table(pcr=2, multiplier=3, min_buy_in=100, max_buy_in=5000)
    users = {name: make_player(name) for name in ("ann", "bob", "cid")}
    for name, chips in (("ann", 1000), ("bob", 400)):
        assert (
            client_for(users[name]).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": chips}).status_code
            == 200
        )
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.WAITING and game.next_round_at is not None
    assert round_start.start_round(game_id=game.pk) is not None
    game.refresh_from_db()
    return {
        "table": table,
        "game": game,
        "users": users,
        "clients": {n: client_for(u) for n, u in users.items()},
    }


def view(ring: dict[str, Any], name: str) -> dict[str, Any]:
    response = ring["clients"][name].get(f"/api/v1/games/{ring['game'].pk}/")
    assert response.status_code == 200, response.content
    return dict(response.json())


def post_move(ring: Any, name: Any, move: Any, version: Any, key: Any = None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return ring["clients"][name].post(
        f"/api/v1/games/{ring['game'].pk}/moves/", {**move, "expected_version": version}, **headers
    )


def test_round_starts_with_two_players_and_views_are_redacted(
    ring: Any, staff_user: Any, client_for: Any
) -> None:
    game = ring["game"]
    assert game.status == GameStatus.PLAYING and game.version == 1
    round_ = Round.objects.get(game=game)
    assert (
        round_.number == 1 and round_.players == ["ann", "bob"] and round_.stacks == {"ann": 1000, "bob": 400}
    )
    to_act = game.turn_player
    assert to_act in ("ann", "bob") and game.turn_deadline is not None
    for name in ("ann", "bob"):
        data = view(ring, name)
        assert data["version"] == 1 and data["round"] == 1 and data["phase"] == "draw"
        own = next(p for p in data["players"] if p["username"] == name)
        assert (
            len(data["hand"]) == own["hand_count"] > 0 and data["deal_commitment"] == round_.deal_commitment
        )
        assert ("legal_moves" in data) == (name == to_act)
        assert data["turn"]["player"] == to_act and data["turn"]["deadline"]
        assert {p["username"]: (p["chips"], p["status"]) for p in data["players"]} == {
            "ann": (1000, "active"),
            "bob": (400, "active"),
        }
        assert not leaked(data, hidden_cards(game, name))
    for spectator in (ring["clients"]["cid"], client_for(staff_user)):
        data = spectator.get(f"/api/v1/games/{game.pk}/").json()
        assert "hand" not in data and "legal_moves" not in data
        assert all("hand" not in p for p in data["players"])
        assert not leaked(data, hidden_cards(game, None))
    rounds = ring["clients"]["ann"].get(f"/api/v1/games/{game.pk}/rounds/").json()["results"]
    assert rounds[0]["deck"] is None and rounds[0]["salt"] is None and rounds[0]["scores"] is None


def test_move_is_applied_and_answers_version_and_events(ring: Any) -> None:
    game = ring["game"]
    player = game.turn_player
    data = view(ring, player)
    response = post_move(ring, player, {"type": "draw", "source": "stock"}, data["version"])
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["version"] == 2
    assert [e["version"] for e in body["events"]] == [2]
    event = body["events"][0]
    assert event["kind"] == "move" and event["player"] == player and event["card"]
    other = "bob" if player == "ann" else "ann"
    events = ring["clients"][other].get(f"/api/v1/games/{game.pk}/events/?after=1").json()["events"]
    assert events[0]["move"] == {"type": "draw", "source": "stock"} and "card" not in events[0]
    assert len(view(ring, player)["hand"]) == len(data["hand"]) + 1
    log = MoveLog.objects.get()
    assert log.player == player and log.version == 2 and not log.server_played


def assert_nothing_changed(ring: Any, before: dict[str, Any]) -> None:
    game = Game.objects.get(pk=ring["game"].pk)
    assert game.version == before["version"] and game.state == before["state"]
    assert MoveLog.objects.count() == before["moves"]


def snapshot(ring: Any) -> dict[str, Any]:
    game = Game.objects.get(pk=ring["game"].pk)
    return {"version": game.version, "state": game.state, "moves": MoveLog.objects.count()}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"type": "fly", "expected_version": 1}, 400, "move.unknown_type"),
        ({"type": "draw", "source": "stock"}, 400, "move.expected_version"),
        ({"type": "draw", "source": "stock", "expected_version": "1"}, 400, "move.expected_version"),
        ({"type": "draw", "source": "sky", "expected_version": 1}, 400, "move.malformed_field"),
        ({"type": "draw", "source": "stock", "expected_version": 1, "extra": 1}, 400, "move.unknown_field"),
        ({"type": "discard", "card": ["AS"], "expected_version": 1}, 400, "move.malformed_field"),
        ({"type": "discard", "card": "ZZ", "expected_version": 1}, 400, None),
        ([1, 2], 400, None),
        ({"type": "discard", "card": "AS", "expected_version": 1}, 422, None),
        ({"type": "draw", "source": "stock", "expected_version": 0}, 409, "game.stale_version"),
    ],
)
def test_bad_moves_are_4xx_and_change_nothing(ring: Any, body: Any, status: Any, code: Any) -> None:
    before = snapshot(ring)
    player = ring["game"].turn_player
    response = ring["clients"][player].post(f"/api/v1/games/{ring['game'].pk}/moves/", body)
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details"}
    if code:
        assert error["code"] == code
    assert_nothing_changed(ring, before)


def test_malformed_json_is_400(ring: Any) -> None:
    before = snapshot(ring)
    player = ring["game"].turn_player
    response = ring["clients"][player].post(
        f"/api/v1/games/{ring['game'].pk}/moves/", "{oops", content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == "request.malformed"
    assert_nothing_changed(ring, before)


def test_not_your_turn_is_422_and_outsider_is_403(ring: Any) -> None:
    before = snapshot(ring)
    player = ring["game"].turn_player
    other = "bob" if player == "ann" else "ann"
    response = post_move(ring, other, {"type": "draw", "source": "stock"}, 1)
    assert response.status_code == 422 and response.json()["error"]["code"].startswith(
        ("turn.", "move.", "draw.")
    )
    outsider = post_move(ring, "cid", {"type": "draw", "source": "stock"}, 1)
    assert outsider.status_code == 403 and outsider.json()["error"]["code"] == "game.not_a_player"
    assert_nothing_changed(ring, before)


def test_idempotency_key_replays_first_answer(ring: Any) -> None:
    player = ring["game"].turn_player
    first = post_move(ring, player, {"type": "draw", "source": "stock"}, 1, key="k-1")
    again = post_move(ring, player, {"type": "draw", "source": "stock"}, 1, key="k-1")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert Game.objects.get(pk=ring["game"].pk).version == 2 and MoveLog.objects.count() == 1
    other = post_move(ring, player, {"type": "draw", "source": "discard"}, 1, key="k-1")
    assert other.status_code == 409 and other.json()["error"]["code"] == "idempotency.key_reused"
    assert Game.objects.get(pk=ring["game"].pk).version == 2


def play_round_over_http(ring: Any) -> Round:
    game = ring["game"]
    number = Round.objects.filter(game=game).count()
    for _ in range(500):
        round_ = Round.objects.get(game=game, number=number)
        if round_.ended_at is not None:
            return round_
        game.refresh_from_db()
        mover = game.turn_player
        data = view(ring, mover)
        for name in ring["users"]:
            other_view = ring["clients"][name].get(f"/api/v1/games/{game.pk}/").json()
            assert not leaked(other_view, hidden_cards(game, name if name in round_.players else None))
        response = post_move(ring, mover, simple_move(data), data["version"])
        assert response.status_code == 200, response.content
    raise AssertionError("the round did not end")


def test_whole_round_is_settled_by_pcr_and_deal_revealed(ring: Any) -> None:
    round_ = play_round_over_http(ring)
    assert round_.settled and round_.scores is not None
    assert round_.transfers == expected_transfers(round_)
    won = dict.fromkeys(round_.players, 0)
    for t in round_.transfers:
        won[t["from"]] -= t["amount"]
        won[t["to"]] += t["amount"]
    assert stacks(ring["table"].pk) == {p: round_.stacks[p] + won[p] for p in round_.players}
    rounds = ring["clients"]["bob"].get(f"/api/v1/games/{ring['game'].pk}/rounds/").json()["results"]
    row = rounds[0]
    assert row["scores"] == round_.scores and row["transfers"] == round_.transfers
    assert row["deck"] and row["salt"] and verify_deal(row["deal_commitment"], row["deck"], row["salt"])
    assert len(row["moves"]) == MoveLog.objects.filter(round=round_).count()
    game = Game.objects.get(pk=ring["game"].pk)
    assert game.status == GameStatus.WAITING and game.next_round_at is not None
    assert_reconciled()
    # the next round: the dealer moves one seat clockwise
    assert round_start.start_round(game_id=game.pk) is not None
    second = Round.objects.get(game=game, number=2)
    assert second.dealer != round_.dealer and second.stacks == stacks(ring["table"].pk)


def test_leave_during_round_marks_leaving_then_cashes_out(ring: Any, settings: Any) -> None:
    ann = ring["users"]["ann"]
    response = ring["clients"]["ann"].post(f"/api/v1/tables/{ring['table'].pk}/leave/")
    assert response.status_code == 200
    assert Seat.objects.get(player=ann, status__in=["leaving"]).status == SeatStatus.LEAVING
    round_ = play_round_over_http_with_server(ring)
    seat = Seat.objects.get(player=ann)
    assert seat.status == SeatStatus.LEFT
    # ann has left, but the round she played stays open to her; never to a bystander
    rounds = ring["clients"]["ann"].get(f"/api/v1/games/{ring['game'].pk}/rounds/")
    assert rounds.status_code == 200 and rounds.json()["results"][0]["deck"]
    assert ring["clients"]["cid"].get(f"/api/v1/games/{ring['game'].pk}/rounds/").status_code == 403
    # ... and so do its events (a past player goes through the full access check, not the seated fast path)
    events = ring["clients"]["ann"].get(f"/api/v1/games/{ring['game'].pk}/events/?after=0")
    assert events.status_code == 200 and events.json()["events"][0]["kind"] == "round_started"
    assert ring["clients"]["cid"].get(f"/api/v1/games/{ring['game'].pk}/events/").status_code == 403
    paid = sum(t["amount"] for t in round_.transfers if t["to"] == "ann") - sum(
        t["amount"] for t in round_.transfers if t["from"] == "ann"
    )
    assert accounts.get_wallet(user=ann).balance == 10_000 - 1000 + 1000 + paid
    assert_reconciled()


def play_round_over_http_with_server(ring: Any) -> Round:
    """bob plays over HTTP; ann's turns are played by the server (her clock fires at once)."""
    game = ring["game"]
    for _ in range(500):
        round_ = Round.objects.get(game=game, number=1)
        if round_.ended_at is not None:
            return round_
        game.refresh_from_db()
        if game.turn_player == "bob":
            data = view(ring, "bob")
            assert post_move(ring, "bob", simple_move(data), data["version"]).status_code == 200
        else:
            assert game.turn_deadline is not None
            assert clock_runs.run_turn_clock(game_id=game.pk, version=game.turn_version)
    raise AssertionError("the round did not end")


def test_sit_during_round_waits_for_next_deal(ring: Any) -> None:
    cid = ring["clients"]["cid"]
    assert cid.post(f"/api/v1/tables/{ring['table'].pk}/sit/", {"buy_in": 200}).status_code == 200
    assert Seat.objects.get(player=ring["users"]["cid"]).status == SeatStatus.SITTING_OUT
    data = cid.get(f"/api/v1/games/{ring['game'].pk}/").json()
    assert "hand" not in data and [p["username"] for p in data["waiting_players"]] == ["cid"]
    round_ = play_round_over_http(ring)
    assert "cid" not in round_.players
    assert round_start.start_round(game_id=ring["game"].pk) is not None
    assert Round.objects.get(game=ring["game"], number=2).players == ["ann", "bob", "cid"]
    assert Seat.objects.get(player=ring["users"]["cid"]).status == SeatStatus.ACTIVE


# ------------------------------------------------------------------------------------------ closing a table


def test_closing_a_table_during_a_round_lets_it_finish_then_cashes_everyone_out(
    ring: Any, admin_user: Any, client_for: Any
) -> None:
    table, game = ring["table"], ring["game"]
    closed = client_for(admin_user).post(f"/api/v1/tables/{table.pk}/close/")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"
    # Nobody sits any more, not even to top up; the running round goes on as any other.
    for name in ("cid", "ann"):
        refused = ring["clients"][name].post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 200})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "table.closed"
    assert Seat.objects.filter(table=table, status=SeatStatus.ACTIVE).count() == 2
    round_ = play_round_over_http(ring)
    assert round_.settled and round_.transfers == expected_transfers(round_)
    game.refresh_from_db()
    assert game.status == GameStatus.CLOSED and game.next_round_at is None
    assert not Seat.objects.filter(table=table).exclude(status=SeatStatus.LEFT).exists()
    paid = {
        name: sum(t["amount"] for t in round_.transfers if t["to"] == name)
        - sum(t["amount"] for t in round_.transfers if t["from"] == name)
        for name in ("ann", "bob")
    }
    assert accounts.get_wallet(user=ring["users"]["ann"]).balance == 10_000 + paid["ann"]
    assert accounts.get_wallet(user=ring["users"]["bob"]).balance == 10_000 + paid["bob"]
    kinds = [
        e["kind"]
        for e in ring["clients"]["ann"].get(f"/api/v1/games/{game.pk}/events/?after=0").json()["events"]
    ]
    assert kinds[-2:] == ["round_over", "table_closed"]
    # A round start that was already on its way deals nothing; closing again changes nothing.
    assert round_start.start_round(game_id=game.pk) is None
    assert Round.objects.filter(game=game).count() == 1
    again = client_for(admin_user).post(f"/api/v1/tables/{table.pk}/close/")
    assert again.status_code == 200 and again.json()["players"] == []
    assert_reconciled()


def test_closing_a_table_between_rounds_cashes_everyone_out_at_once(
    make_table: Any, make_player: Any, client_for: Any, admin_user: Any
) -> None:
    table = make_table(min_buy_in=100, max_buy_in=5000)
    ann = make_player("ann")
    assert client_for(ann).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 700}).status_code == 200
    assert accounts.get_wallet(user=ann).balance == 10_000 - 700
    closed = client_for(admin_user).post(f"/api/v1/tables/{table.pk}/close/")
    assert closed.status_code == 200
    assert closed.json()["players"] == [] and closed.json()["current_game"] is None
    assert accounts.get_wallet(user=ann).balance == 10_000
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.CLOSED
    assert Seat.objects.get(table=table).status == SeatStatus.LEFT
    assert round_start.start_round(game_id=game.pk) is None
    assert_reconciled()


def test_a_round_start_finding_its_table_closed_winds_it_down(ring: Any) -> None:
    """The table closed (a race with the round's end): the start that follows cashes out instead of dealing."""
    from tournaments.live.models import Table, TableStatus

    round_ = play_round_over_http(ring)
    game = ring["game"]
    game.refresh_from_db()
    assert game.status == GameStatus.WAITING and round_.settled
    Table.objects.filter(pk=ring["table"].pk).update(status=TableStatus.CLOSED)
    assert round_start.start_round(game_id=game.pk) is None
    game.refresh_from_db()
    assert game.status == GameStatus.CLOSED
    assert not Seat.objects.filter(table=ring["table"]).exclude(status=SeatStatus.LEFT).exists()
    assert_reconciled()

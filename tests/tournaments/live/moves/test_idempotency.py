"""Idempotency keys of sit, join, leave and moves (docs/api.md "Idempotency"): a replay answers the first
answer, refusals included; the same key with another body is 409; a failure that is no answer (5xx, 503) is
not kept."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import OperationalError
from django.utils import timezone

from ledger.services import accounts
from tests.ledger.utils import assert_reconciled
from tournaments import engine
from tournaments.live.models import Game, GameEvent, IdempotentRequest, MoveLog
from tournaments.live.moves import idempotency
from tournaments.live.moves import pipeline as moves
from tournaments.live.tables import services as tables
from tournaments.tasks import forget_idempotency_keys

pytestmark = pytest.mark.django_db


def _post(client: Any, path: str, body: dict[str, Any] | None = None, key: str | None = None) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/v1{path}", body or {}, **headers)


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["error"]["code"] == code, body
    return dict(body)


def wallet(user: Any) -> int:
    return accounts.get_wallet(user=user).balance


# ------------------------------------------------------------------------------------ sit, join and leave


def test_sit_replay_answers_the_first_answer_and_another_body_is_409(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table()
    ann = make_player("ann")
    client = client_for(ann)
    first = _post(client, f"/tables/{table.pk}/sit/", {"buy_in": 300}, key="k")
    assert first.status_code == 200
    again = _post(client, f"/tables/{table.pk}/sit/", {"buy_in": 300}, key="k")
    assert again.status_code == 200 and again.json() == first.json()
    _error(_post(client, f"/tables/{table.pk}/sit/", {"buy_in": 400}, key="k"), 409, "idempotency.key_reused")
    assert wallet(ann) == 10_000 - 300
    # Another key is another action: a top-up. Another user's same key is theirs.
    assert _post(client, f"/tables/{table.pk}/sit/", {"buy_in": 300}, key="k2").status_code == 200
    assert wallet(ann) == 10_000 - 600
    bob = make_player("bob")
    assert _post(client_for(bob), f"/tables/{table.pk}/sit/", {"buy_in": 300}, key="k").status_code == 200
    assert wallet(bob) == 10_000 - 300
    assert_reconciled()


def test_join_replay_answers_the_first_answer_and_another_body_is_409(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table(private=True, creator=make_player("host"))
    bob = make_player("bob")
    client = client_for(bob)
    first = _post(client, "/tables/join/", {"code": table.code, "buy_in": 200}, key="j")
    assert first.status_code == 200
    assert _post(client, "/tables/join/", {"code": table.code, "buy_in": 200}, key="j").json() == first.json()
    _error(
        _post(client, "/tables/join/", {"code": table.code, "buy_in": 250}, key="j"),
        409,
        "idempotency.key_reused",
    )
    assert wallet(bob) == 10_000 - 200
    assert_reconciled()


def test_leave_replay_answers_the_first_answer_and_keys_are_scoped_to_the_path(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    one, two = make_table(), make_table()
    ann = make_player("ann")
    client = client_for(ann)
    for table in (one, two):
        assert (
            _post(client, f"/tables/{table.pk}/sit/", {"buy_in": 100}, key=f"sit-{table.pk}").status_code
            == 200
        )
    first = _post(client, f"/tables/{one.pk}/leave/", key="bye")
    assert first.status_code == 200 and first.json()["players"] == []
    # Without the key the second leave would be 409 seat.not_seated: the replay is the first answer.
    assert _post(client, f"/tables/{one.pk}/leave/", key="bye").json() == first.json()
    _error(_post(client, f"/tables/{one.pk}/leave/"), 409, "seat.not_seated")
    # The same key on another table's leave is another request.
    assert _post(client, f"/tables/{two.pk}/leave/", key="bye").json()["players"] == []
    assert wallet(ann) == 10_000
    assert_reconciled()


def test_a_refused_sit_is_replayed_as_refused_even_once_it_would_succeed(
    make_table: Any, make_player: Any, client_for: Any
) -> None:
    table = make_table(seats=2)
    seated = [make_player("a1"), make_player("a2")]
    for user in seated:
        assert _post(client_for(user), f"/tables/{table.pk}/sit/", {"buy_in": 100}).status_code == 200
    late = client_for(make_player("late"))
    full = _error(_post(late, f"/tables/{table.pk}/sit/", {"buy_in": 100}, key="s"), 409, "table.full")
    assert _post(client_for(seated[0]), f"/tables/{table.pk}/leave/").status_code == 200
    # A chair is free now, but the key's answer was "full".
    assert (
        _error(_post(late, f"/tables/{table.pk}/sit/", {"buy_in": 100}, key="s"), 409, "table.full") == full
    )
    assert _post(late, f"/tables/{table.pk}/sit/", {"buy_in": 100}, key="s2").status_code == 200
    assert_reconciled()


def test_a_failure_that_is_no_answer_is_not_kept_and_the_retry_runs(
    make_table: Any, make_player: Any, client_for: Any, monkeypatch: Any
) -> None:
    table = make_table()
    ann = make_player("ann")
    real_sit = tables.sit
    calls: list[int] = []

    def flaky_sit(**kwargs: Any) -> Any:
        calls.append(1)
        seat = real_sit(**kwargs)  # its writes, rolled back with the key's
        if len(calls) == 1:
            raise OperationalError("the database went away")
        return seat

    monkeypatch.setattr(tables, "sit", flaky_sit)
    client = client_for(ann)
    _error(_post(client, f"/tables/{table.pk}/sit/", {"buy_in": 300}, key="k"), 503, "service.unavailable")
    assert not IdempotentRequest.objects.exists() and wallet(ann) == 10_000
    assert _post(client, f"/tables/{table.pk}/sit/", {"buy_in": 300}, key="k").status_code == 200
    assert len(calls) == 2 and wallet(ann) == 10_000 - 300
    assert_reconciled()


def test_an_overlong_key_is_400(make_table: Any, make_player: Any, client_for: Any) -> None:
    table = make_table()
    ann = make_player("ann")
    response = _post(client_for(ann), f"/tables/{table.pk}/sit/", {"buy_in": 100}, key="k" * 256)
    _error(response, 400, "idempotency.key_invalid")
    assert wallet(ann) == 10_000


def test_kept_answers_are_forgotten_after_the_retention(
    make_table: Any, make_player: Any, client_for: Any, settings: Any
) -> None:
    settings.RAMINO_IDEMPOTENCY_KEEP_HOURS = 24
    table = make_table()
    client = client_for(make_player("ann"))
    assert _post(client, f"/tables/{table.pk}/sit/", {"buy_in": 100}, key="old").status_code == 200
    assert _post(client, f"/tables/{table.pk}/sit/", {"buy_in": 100}, key="new").status_code == 200
    IdempotentRequest.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))
    assert forget_idempotency_keys() == 1
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["new"]
    assert idempotency.forget_expired(older_than=timedelta(0)) == 1


# ------------------------------------------------------------------------------------------------- moves


def _move_url(game: Game) -> str:
    return f"/games/{game.pk}/moves/"


def test_a_refused_move_is_replayed_without_running_the_engine_even_once_it_is_legal(
    dealt: Any, client_for: Any
) -> None:
    game = dealt["game"]
    mover = dealt["mover"]
    client = client_for(mover)
    name = mover.get_username()
    state = engine.state_from_dict(game.state)
    drawn = engine.apply_move(state, name, {"type": "draw", "source": "stock"})
    discard = next(m for m in engine.legal_moves(drawn, name) if m["type"] == "discard")
    body = {**discard, "expected_version": game.version}
    # Discarding before drawing is against the rules.
    first = client.post(f"/api/v1{_move_url(game)}", body, HTTP_IDEMPOTENCY_KEY="m1")
    assert first.status_code == 422, first.content
    # Now make the same body legal at the same version: the player has drawn (state written directly).
    Game.objects.filter(pk=game.pk).update(state=engine.state_to_dict(drawn))
    again = client.post(f"/api/v1{_move_url(game)}", body, HTTP_IDEMPOTENCY_KEY="m1")
    assert again.status_code == 422 and again.json() == first.json()
    after = Game.objects.get(pk=game.pk)
    assert after.version == game.version and after.state == engine.state_to_dict(drawn)
    assert not MoveLog.objects.exists() and GameEvent.objects.filter(game=game).count() == game.version
    _error(
        client.post(
            f"/api/v1{_move_url(game)}",
            {**body, "expected_version": game.version + 5},
            HTTP_IDEMPOTENCY_KEY="m1",
        ),
        409,
        "idempotency.key_reused",
    )
    # The move is legal indeed: under a new key it is played.
    played = client.post(f"/api/v1{_move_url(game)}", body, HTTP_IDEMPOTENCY_KEY="m2")
    assert played.status_code == 200, played.content
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_a_stale_version_refusal_is_replayed(dealt: Any, client_for: Any) -> None:
    game = dealt["game"]
    client = client_for(dealt["mover"])
    body = {"type": "draw", "source": "stock", "expected_version": game.version + 1}
    first = _error(
        client.post(f"/api/v1{_move_url(game)}", body, HTTP_IDEMPOTENCY_KEY="s"), 409, "game.stale_version"
    )
    assert first["error"]["details"] == {"version": game.version, "expected_version": game.version + 1}
    # The game moves on to the version the body named; the key still answers its first answer.
    moved = client.post(
        f"/api/v1{_move_url(game)}", {**body, "expected_version": game.version}, HTTP_IDEMPOTENCY_KEY="d"
    )
    assert moved.status_code == 200
    again = client.post(f"/api/v1{_move_url(game)}", body, HTTP_IDEMPOTENCY_KEY="s")
    assert again.status_code == 409 and again.json() == first
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_refusals_without_a_key_or_outside_http_are_not_kept(dealt: Any, client_for: Any) -> None:
    game = dealt["game"]
    body = {"type": "draw", "source": "stock", "expected_version": game.version + 1}
    _error(client_for(dealt["mover"]).post(f"/api/v1{_move_url(game)}", body), 409, "game.stale_version")
    with pytest.raises(Exception, match="moved on"):
        moves.submit_move(
            user=dealt["mover"],
            game_id=game.pk,
            move={"type": "draw", "source": "stock"},
            expected_version=game.version + 1,
            idempotency_key="direct",
        )
    assert not IdempotentRequest.objects.exists()


def test_an_accepted_move_keeps_its_answer_in_the_move_log_only(dealt: Any, client_for: Any) -> None:
    game = dealt["game"]
    body = {"type": "draw", "source": "stock", "expected_version": game.version}
    response = client_for(dealt["mover"]).post(f"/api/v1{_move_url(game)}", body, HTTP_IDEMPOTENCY_KEY="a")
    assert response.status_code == 200
    assert MoveLog.objects.get().idempotency_key == "a"
    assert not IdempotentRequest.objects.exists()

"""database/rows.py: hand-written statements give exactly what the ORM gives."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import signals

from database import rows
from ledger.models import Account
from tournaments.live.models import Game, Round, Seat, Table
from tournaments.live.rounds import start as round_start
from tournaments.live.storage import events as game_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def running_table(make_table: Any, make_player: Any, client_for: Any) -> dict[str, Any]:
    """A table with two players seated and round 1 dealt."""
    table = make_table(pcr=2, min_buy_in=100, max_buy_in=5000)
    for name in ("ann", "bob"):
        response = client_for(make_player(name)).post(f"/api/v1/tables/{table.pk}/sit/", {"buy_in": 500})
        assert response.status_code == 200
    game = Game.objects.get(table=table)
    assert round_start.start_round(game_id=game.pk) is not None
    return {"table": table}


def _orm_and_rows(obj: models.Model) -> tuple[Any, Any]:
    model = type(obj)
    found = rows.fetch(
        f"SELECT {rows.columns(model, 'x')} FROM {rows.table(model)} x WHERE x.id = %s", [obj.pk]
    )
    return model._default_manager.get(pk=obj.pk), rows.from_row(model, found[0])


def _fields(obj: models.Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_rows_read_what_the_orm_reads(running_table: Any) -> None:
    table: Table = running_table["table"]
    game = Game.objects.get(table=table)
    objects: list[models.Model] = [
        table,
        game,
        Round.objects.filter(game=game).first(),  # type: ignore[list-item]
        *Seat.objects.filter(table=table),
        *Account.objects.filter(kind="seat_stack"),
        *get_user_model().objects.filter(seats__table=table),
    ]
    assert len(objects) >= 7
    for obj in objects:
        orm, read = _orm_and_rows(obj)
        assert type(read) is type(orm)
        assert _fields(read) == _fields(orm)
        assert read._state.adding is False and read._state.db == orm._state.db
        assert read == orm


def test_a_model_with_init_receivers_is_built_by_its_constructor(running_table: Any) -> None:
    seen: list[Any] = []

    def receiver(sender: Any, instance: Any, **kwargs: Any) -> None:
        seen.append(instance)

    signals.post_init.connect(receiver, sender=Table)
    try:
        orm, read = _orm_and_rows(running_table["table"])
        assert read in seen and _fields(read) == _fields(orm)
    finally:
        signals.post_init.disconnect(receiver, sender=Table)


def test_the_game_view_read_in_one_statement_equals_the_orms(running_table: Any, make_player: Any) -> None:
    from django.utils import timezone

    from tournaments.live.storage import selectors

    table: Table = running_table["table"]
    game = Game.objects.get(table=table)
    Round.objects.create(
        game=game,
        number=7,
        players=["ann", "bob"],
        seat_numbers={"ann": 1, "bob": 2},
        dealer=0,
        deal_commitment="x" * 64,
        scores={"ann": 12, "bob": -12},
        ended_at=timezone.now(),
    )
    viewers = [get_user_model().objects.get(username=name) for name in ("ann", "bob")] + [make_player("zed")]
    for user in viewers:
        loaded = selectors.game_access(user=user, game_id=game.pk, with_history=True)
        assert loaded._players is not None and loaded._history == [{"ann": 12, "bob": -12}]
        orm_game = Game.objects.select_related("table", "current_round").get(pk=game.pk)
        by_orm = selectors.GameAccess(game=orm_game, user=user)
        assert loaded.seated == by_orm.seated
        assert selectors.game_view(access=loaded) == selectors.game_view(access=by_orm)


def test_the_events_read_in_one_statement_equals_the_orms(running_table: Any, client_for: Any) -> None:
    from tournaments.live.models import GameEvent
    from tournaments.live.storage import rows as game_rows

    game = Game.objects.get(table=running_table["table"])
    mover = get_user_model().objects.get(username=game.turn_player)
    for move in ({"type": "draw", "source": "stock"}, {"type": "discard"}):
        game.refresh_from_db()
        if move["type"] == "discard":
            move["card"] = (
                GameEvent.objects.filter(game=game).latest("version").private[mover.username]["card"]
            )
        body = {**move, "expected_version": game.version}
        assert client_for(mover).post(f"/api/v1/games/{game.pk}/moves/", body).status_code == 200
    game.refresh_from_db()
    assert game.version == 3
    for after, limit in ((0, 500), (1, 500), (0, 2), (3, 500), (99, 500)):
        loaded = game_rows.load_events(game_id=game.pk, after=after, limit=limit)
        assert loaded is not None
        version, events = loaded
        expected = list(GameEvent.objects.filter(game=game, version__gt=after).order_by("version")[:limit])
        assert version == game.version
        assert [_fields(e) for e in events] == [_fields(e) for e in expected]
        assert [game_log.event_for(e, "bob") for e in events] == [
            game_log.event_for(e, "bob") for e in expected
        ]
    assert game_rows.load_events(game_id=game.pk + 1000, after=0, limit=5) is None


def test_rows_write_what_save_writes(running_table: Any) -> None:
    from django.utils import timezone

    from tournaments.live.models import GameEvent, GameStatus, MoveLog

    game = Game.objects.select_related("current_round").get(table=running_table["table"])
    round_ = game.current_round
    assert round_ is not None
    user = get_user_model().objects.get(username="ann")
    at = timezone.now()

    def event(version: int) -> GameEvent:
        return GameEvent(
            game_id=game.pk,
            version=version,
            round_id=round_.pk,
            kind="move",
            public={"a": [1]},
            created_at=at,
        )

    def log(version: int) -> MoveLog:
        return MoveLog(
            round_id=round_.pk,
            game_id=game.pk,
            player="ann",
            user_id=user.pk,
            move={"type": "draw"},
            version=version,
            idempotency_key=f"k{version}",
            request_hash="h",
            server_played=False,
            response={"version": version},
        )

    rows.execute([rows.insert_sql([event(1000)]), rows.insert_sql([log(1000)])])
    event(1001).save()
    log(1001).save()

    def same(model: type[models.Model], a: Any, b: Any, differ: set[str]) -> None:
        assert {k: v for k, v in _fields(a).items() if k not in differ} == {
            k: v for k, v in _fields(b).items() if k not in differ
        }

    kept = GameEvent.objects.get(game=game, version=1000)
    assert kept.created_at == at  # rows keeps a time the caller set (save() would stamp its own)
    same(GameEvent, kept, GameEvent.objects.get(game=game, version=1001), {"id", "version", "created_at"})
    by_rows, by_save = (
        MoveLog.objects.get(game=game, version=1000),
        MoveLog.objects.get(game=game, version=1001),
    )
    same(MoveLog, by_rows, by_save, {"id", "version", "idempotency_key", "response", "created_at"})

    game.status = GameStatus.WAITING
    game.turn_player = "bob"
    rows.update(game, ["status", "turn_player"])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.status, stored.turn_player) == (GameStatus.WAITING, "bob")
    assert stored.updated_at >= at


# ------------------------------------------------------------------------------------- prepared statements


def _captured(run: Any) -> tuple[Any, list[str]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        result = run()
    return result, [q["sql"] for q in captured.captured_queries]


def test_a_prepared_statement_is_prepared_once_per_connection_and_reads_the_same(
    running_table: Any,
) -> None:
    table: Table = running_table["table"]
    # A text no other test prepares: this connection has not seen it.
    sql = f"SELECT {rows.columns(Table, 't')} FROM {rows.table(Table)} t WHERE t.id = %s AND t.game <> '%%x'"
    plain = rows.fetch(sql, [table.pk])
    first, first_sql = _captured(lambda: rows.fetch(sql, [table.pk], prepared=True))
    again, again_sql = _captured(lambda: rows.fetch(sql, [table.pk], prepared=True))
    assert first == again == plain and len(plain) == 1
    # One round trip each: the first prepares and runs, the next runs by name with its values.
    assert len(first_sql) == 1 and first_sql[0].startswith("PREPARE ramino_rows_")
    assert "t.id = $1" in first_sql[0] and "'%x'" in first_sql[0]
    assert len(again_sql) == 1 and again_sql[0].startswith("EXECUTE ramino_rows_")
    assert again_sql[0].endswith(f"({table.pk})")


def test_a_failure_after_the_prepare_leaves_the_next_run_working(running_table: Any) -> None:
    from django.db import DataError, transaction

    table: Table = running_table["table"]
    sql = f"SELECT t.id / %s FROM {rows.table(Table)} t WHERE t.id = %s"
    with pytest.raises(DataError), transaction.atomic():  # division by zero, after the PREPARE took effect
        rows.fetch(sql, [0, table.pk], prepared=True)
    # Prepared again under a new name (the failed one outlived the rollback).
    found, statements = _captured(lambda: rows.fetch(sql, [1, table.pk], prepared=True))
    assert found == [(table.pk,)]
    assert statements[0].startswith("PREPARE ramino_rows_")


def test_prepared_statements_can_be_turned_off(running_table: Any, settings: Any) -> None:
    settings.RAMINO_DATABASE_PREPARED_STATEMENTS = False
    table: Table = running_table["table"]
    sql = f"SELECT t.id FROM {rows.table(Table)} t WHERE t.id = %s AND t.pcr > 0"
    found, statements = _captured(lambda: rows.fetch(sql, [table.pk], prepared=True))
    assert found == [(table.pk,)]
    assert statements == [sql.replace("%s", str(table.pk))]

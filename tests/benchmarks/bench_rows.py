"""What building the move's rows through `Model.from_db` costs against the constructor bypassed by hand.

    DJANGO_SETTINGS_MODULE=config.settings.test .venv/bin/python -m tests.benchmarks.bench_rows

database/rows.py builds every row it reads with `Model.from_db` (public API: `__init__` and its signals
run). Before, it skipped `Model.__init__` when nothing listened to `pre_init`/`post_init` (a new instance,
its `_state`, and the values put straight into its `__dict__`), which had been 7.9% of a move's GIL samples
when the rows were built with `__init__` field by field. This measures both on the rows a move builds (the
knox token, its user, the game, the table, the current round), with the values as the converters give them,
no database involved; the two ways alternate within one process, best of --repeat runs of --number builds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import timeit
from typing import Any

from django.db import models


def _bypass(model: type[models.Model], alias: str, attnames: tuple[str, ...], values: list[Any]) -> Any:
    """The constructor bypass database/rows.py used before (kept here only as the comparison)."""
    from django.db.models.base import ModelState

    obj = model.__new__(model)
    state = obj._state = ModelState()
    state.adding = False
    state.db = alias
    obj.__dict__.update(zip(attnames, values, strict=True))
    return obj


def _rows() -> list[tuple[type[models.Model], tuple[str, ...], list[Any]]]:
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from knox.models import get_token_model

    from tournaments.live.models import Game, Round, Table

    now = timezone.now()
    user_model = get_user_model()
    instances = [
        get_token_model()(digest="d" * 128, token_key="k" * 15, user_id=1, created=now, expiry=now),
        user_model(id=1, username="ann", password="x", last_login=now, date_joined=now),
        Game(id=1, table_id=1, state={"hands": {"ann": ["AS"] * 10}}, version=40, current_round_id=1),
        Table(id=1, game="rummy500", seats=4, pcr=2, min_buy_in=100, max_buy_in=5000, created_at=now),
        Round(
            id=1,
            game_id=1,
            number=3,
            players=["ann", "bob"],
            seat_numbers={"ann": 1, "bob": 2},
            dealer=0,
            deal_commitment="x" * 64,
            started_at=now,
        ),
    ]
    return [
        (
            type(obj),
            tuple(f.attname for f in obj._meta.concrete_fields),
            [getattr(obj, f.attname) for f in obj._meta.concrete_fields],
        )
        for obj in instances
    ]


# The field classes whose values database/rows.py once wrote as the instance held them (kept here only as the
# comparison): their `pre_save` and `get_db_prep_save` only read the attribute and re-check its type.
def _plain(field: Any) -> bool:
    classes = (
        models.CharField,
        models.IntegerField,
        models.BigIntegerField,
        models.SmallIntegerField,
        models.PositiveIntegerField,
        models.PositiveSmallIntegerField,
        models.PositiveBigIntegerField,
        models.BooleanField,
    )
    return not field.primary_key and (
        type(field) in classes
        or (
            isinstance(field, models.ForeignKey)
            and type(field.target_field) in (*classes, models.BigAutoField, models.AutoField)
        )
    )


def _writes(results: dict[str, list[float]], number: int, repeat: int) -> None:
    """The values of the move's write statements (the game row's update, the event and the log row):
    every value through `pre_save` and `get_db_prep_save` as `save()` does (database/rows.py), against
    the plain fields (char, integer, boolean, foreign keys) read straight from the instance."""
    from django.db import connections
    from django.utils import timezone

    from tournaments.live.models import Game, GameEvent, MoveLog
    from tournaments.live.storage.events import GAME_PLAY_FIELDS

    now = timezone.now()
    _, attnames, values = _rows()[2]
    game = Game.from_db("default", attnames, values)
    game.turn_started_at = game.turn_deadline = now
    event = GameEvent(game_id=1, version=41, round_id=1, kind="move", public={"type": "draw"}, created_at=now)
    log = MoveLog(
        round_id=1,
        game_id=1,
        player="ann",
        user_id=1,
        move={"type": "draw"},
        version=41,
        idempotency_key="k",
        request_hash="h" * 64,
        response={"version": 41, "events": []},
    )
    writes = [
        (
            game,
            False,
            [f for f in Game._meta.concrete_fields if f.name in GAME_PLAY_FIELDS or f.name == "updated_at"],
        ),
        (event, True, [f for f in GameEvent._meta.concrete_fields if not f.primary_key]),
        (log, True, [f for f in MoveLog._meta.concrete_fields if not f.primary_key]),
    ]
    plain = {f: _plain(f) for _, _, fields in writes for f in fields}
    db = connections["default"]  # as database/rows.py: the wrapper itself, not the `connection` proxy

    def converted() -> None:
        for obj, add, fields in writes:
            [f.get_db_prep_save(f.pre_save(obj, add), db) for f in fields]

    def as_held() -> None:
        for obj, add, fields in writes:
            held = obj.__dict__
            [held[f.attname] if plain[f] else f.get_db_prep_save(f.pre_save(obj, add), db) for f in fields]

    for _ in range(repeat):
        results.setdefault("writes, every value converted", []).append(
            timeit.timeit(converted, number=number) / number
        )
        results.setdefault("writes, plain fields as held", []).append(
            timeit.timeit(as_held, number=number) / number
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--number", type=int, default=20_000, help="builds of the move's rows per run")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    rows = _rows()

    def by_from_db() -> None:
        for model, attnames, values in rows:
            model.from_db("default", attnames, values)

    def by_bypass() -> None:
        for model, attnames, values in rows:
            _bypass(model, "default", attnames, values)

    results: dict[str, list[float]] = {"from_db": [], "bypass": []}
    for _ in range(args.repeat):  # alternating, so that the machine's load falls on both alike
        results["from_db"].append(timeit.timeit(by_from_db, number=args.number) / args.number)
        results["bypass"].append(timeit.timeit(by_bypass, number=args.number) / args.number)
    _writes(results, args.number, args.repeat)
    print(f"rows per move: {len(rows)} ({', '.join(model.__name__ for model, _, _ in rows)})")
    for name, times in results.items():
        print(
            f"{name:30s} best {min(times) * 1e6:6.2f} µs per move,"
            f" median {statistics.median(times) * 1e6:6.2f} µs"
        )
    for slow, fast in (
        ("from_db", "bypass"),
        ("writes, every value converted", "writes, plain fields as held"),
    ):
        extra = min(results[slow]) - min(results[fast])
        print(
            f"{slow} / {fast}: {extra * 1e6:+.2f} µs per move ({min(results[slow]) / min(results[fast]):.2f}x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

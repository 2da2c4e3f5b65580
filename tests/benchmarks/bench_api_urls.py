"""The API benchmark's URLs: the project's own, plus the floor endpoint.

The floor is the least a move endpoint could cost on this stack: the same gunicorn, Django middleware,
the project's token authentication (knox's class, not the play endpoints' hand-written read), JSON parsing and rendering, and one transaction holding one row lock
(`SELECT ... FOR UPDATE`) and doing one insert. Its two tables are created with raw SQL by the benchmark
(`FLOOR_DDL`), never by a migration.
"""

from __future__ import annotations

import json
from typing import cast

from django.db import connection, transaction
from django.urls import URLPattern, URLResolver, path
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import handler400, handler403, handler404, handler500
from config.urls import urlpatterns as project_urlpatterns

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]

FLOOR_DDL = (
    "DROP TABLE IF EXISTS bench_floor_log",
    "DROP TABLE IF EXISTS bench_floor_row",
    "CREATE TABLE bench_floor_row (id integer PRIMARY KEY, version bigint NOT NULL DEFAULT 0)",
    """CREATE TABLE bench_floor_log (
           id bigserial PRIMARY KEY,
           row_id integer NOT NULL REFERENCES bench_floor_row (id),
           body jsonb NOT NULL,
           created_at timestamptz NOT NULL DEFAULT now()
       )""",
)


class FloorView(APIView):
    """POST /bench/floor/<row>/: lock the row, insert one log line, answer like a move does."""

    def post(self, request: Request, row_id: int) -> Response:
        if not isinstance(request.data, dict):
            raise ParseError("The body must be a JSON object.")
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT id FROM bench_floor_row WHERE id = %s FOR UPDATE", [row_id])
            if cursor.fetchone() is None:
                raise NotFound("No such row.")
            cursor.execute(
                "INSERT INTO bench_floor_log (row_id, body) VALUES (%s, %s) RETURNING id",
                [row_id, json.dumps(request.data)],
            )
            row = cursor.fetchone()
        assert row is not None
        return Response({"version": row[0], "events": []})


urlpatterns: list[URLPattern | URLResolver] = [
    *cast(list[URLPattern | URLResolver], project_urlpatterns),
    path("bench/floor/<int:row_id>/", FloorView.as_view(), name="bench-floor"),
]

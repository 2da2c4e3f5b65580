"""CSV for the staff audit endpoints of every app (`?format=csv`), enabled per view."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer


def _cell(value: Any) -> Any:
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    if value is None:
        return ""
    return value


def _flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value and all(not isinstance(v, Mapping) for v in value.values()):
            # One level of nesting (e.g. an error envelope's fields) reads better as columns.
            flat.update({f"{name}.{k}": _cell(v) for k, v in value.items()})
        else:
            flat[name] = _cell(value)
    return flat


class CSVRenderer(BaseRenderer):
    """Renders a list, a page ({"results": [...]}) or a single object as CSV with a header row."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        if isinstance(data, Mapping) and isinstance(data.get("results"), list):
            rows = data["results"]
        elif isinstance(data, list):
            rows = data
        else:
            rows = [data]
        flat_rows = [_flatten(row) if isinstance(row, Mapping) else {"value": _cell(row)} for row in rows]
        columns: list[str] = []
        for row in flat_rows:
            columns.extend(key for key in row if key not in columns)
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows(flat_rows)
        return out.getvalue().encode(self.charset)

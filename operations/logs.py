"""The JSON log formatter of production (`RAMINO_LOG_FORMAT=json`): one JSON object per line with the time,
level, logger, message, the request id, the process and, when there is one, the exception's traceback.
python-json-logger's formatter, with the field names fixed here (docs/operations.md, "Logs")."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

FIELDS = ("time", "level", "logger", "message", "request_id", "process")


class JsonFormatter(_JsonFormatter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("timestamp", False)
        super().__init__(*args, **kwargs)

    def add_fields(self, log_record: dict[str, Any], record: Any, message_dict: dict[str, Any]) -> None:
        super().add_fields(log_record, record, message_dict)
        log_record["time"] = datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds")
        log_record["level"] = record.levelname
        log_record["logger"] = record.name
        log_record["request_id"] = getattr(record, "request_id", None) or "-"
        log_record["process"] = record.process


class AsWarning:
    """A logging filter that turns a record into a WARNING without its traceback: for what strangers can set off
    at will (a request naming a host the site does not serve, `django.security.DisallowedHost`), which must not
    count as an error nor page anyone (docs/operations.md, "Logs"). The request is still answered 400."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING:
            record.levelno = logging.WARNING
            record.levelname = logging.getLevelName(logging.WARNING)
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        return True

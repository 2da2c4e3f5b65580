"""The embedded default's broker: kombu's filesystem transport, with each message written whole before a
worker can see it.

kombu's filesystem channel creates a message's file under its final name, then locks and writes it; a worker
listing the folder in between moves the empty file away and fails to decode it, and the worker process dies
(kombu issue #1551, open; seen in `make smoke` with `make run`'s two workers and uvicorn's concurrent
requests). Here a message is written under a name no queue reads (it has no `.` so it names no queue) and
renamed to its final name once complete: a rename within a folder is atomic on POSIX, so a reader sees the
whole message or none. Chosen by `CELERY_BROKER_TRANSPORT` in config/settings/base.py whenever the broker URL
is `filesystem://`; every other behaviour is kombu's."""

from __future__ import annotations

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    # kombu's own filesystem channel renames the base's `message` to `payload` (its stub ignores the override too).
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # No dot in the name: `_get`, `_size` and `_purge` match `<anything>.<queue>.msg` only.
        partial = os.path.join(self.data_folder_out, f"writing-{uuid.uuid4().hex}")
        try:
            with open(partial, "wb", buffering=0) as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel

"""The embedded default's broker (operations/broker.py): a worker never sees a message before it is whole."""

from __future__ import annotations

import threading
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from kombu import Connection
from kombu.utils.json import dumps as kombu_dumps

from operations import broker

pytestmark = pytest.mark.sqlite


def _connection(folder: Path) -> Connection:
    (folder / "out").mkdir()
    (folder / "processed").mkdir()
    return Connection(
        "filesystem://",
        transport="operations.broker:Transport",
        transport_options={
            "data_folder_in": str(folder / "out"),
            "data_folder_out": str(folder / "out"),
            "processed_folder": str(folder / "processed"),
            "store_processed": False,
        },
    )


def test_a_reader_during_the_write_finds_nothing_then_the_whole_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _connection(tmp_path) as connection:
        channel: Any = connection.default_channel
        seen_while_writing: list[str] = []

        def dumps_with_a_reader_in_between(payload: Any) -> str:
            # kombu's own channel has created the message's file by now (empty, under its final name): a
            # worker listing the folder here took it and failed to decode it.
            try:
                channel._get("celery")
            except Empty:
                seen_while_writing.append("nothing")
            else:
                seen_while_writing.append("a message")
            return str(kombu_dumps(payload))

        monkeypatch.setattr(broker, "dumps", dumps_with_a_reader_in_between)
        channel._put("celery", {"body": "whole"})
        assert seen_while_writing == ["nothing"]
        assert channel._get("celery") == {"body": "whole"}
        assert channel._size("celery") == 0


def test_racing_writers_and_a_reader_lose_and_break_no_message(tmp_path: Path) -> None:
    count = 400
    with _connection(tmp_path) as connection:
        reader: Any = connection.default_channel
        received: list[int] = []
        failures: list[BaseException] = []
        done = threading.Event()

        def read() -> None:
            while not done.is_set() or len(received) < count:
                try:
                    received.append(reader._get("q")["n"])
                except Empty:
                    if done.is_set() and reader._size("q") == 0:
                        return
                except BaseException as exc:  # a half-written message: the test's failure
                    failures.append(exc)
                    return

        def write(start: int) -> None:
            with _connection_for_writer(tmp_path) as writing:
                channel: Any = writing.default_channel
                for n in range(start, count, 2):
                    channel._put("q", {"n": n})

        thread = threading.Thread(target=read)
        thread.start()
        writers = [threading.Thread(target=write, args=(start,)) for start in (0, 1)]
        for writer in writers:
            writer.start()
        for writer in writers:
            writer.join()
        done.set()
        thread.join(timeout=60)
        assert not failures
        assert sorted(received) == list(range(count))


def _connection_for_writer(folder: Path) -> Connection:
    return Connection(
        "filesystem://",
        transport="operations.broker:Transport",
        transport_options={
            "data_folder_in": str(folder / "out"),
            "data_folder_out": str(folder / "out"),
            "processed_folder": str(folder / "processed"),
            "store_processed": False,
        },
    )

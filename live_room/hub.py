"""One database read per topic and new version for all of a socket process's sockets (docs/operations.md "The
socket tier", docs/performance.md "Live sockets").

A wake-up (a topic and a version) reaches every socket of the topic's group in the process at once. Each used to
read the events after its own last version for its own user: a move cost one read per open socket of the game.
Here the first socket to need a version reads the topic's new events once, for no one in particular
(`topics.shared_read`: a game's events with all their private parts and, in the same statement, the ids of the
players seated at its table), and every other socket of the process waiting for it is served from that read:

- a seated player's socket takes each event's public part and its own player's private part only
  (`topics.viewed`, the REST read's redaction), as `GET /games/{id}/events/` gives the seated player, who is let
  in by the same statement;
- anyone else (staff, a past player, someone no longer seated) returns None and reads for their own user as
  before, with the REST read's refusals.

A chat room's read (`chat:<room>`) is shared the same way: its messages with their authors' ids, and which of
the process's readers of the room may read it now (the members of a tournament's room or a private table's,
asked about in the same read; everyone registered in the lobby and at a public table; staff always). Each socket
leaves out the authors its user muted or blocked (`hidden`, kept in memory by the socket), so a message costs a
few statements per process, not one read per reader; a room whose chat is off, or a reader who is not a member
now, reads for its own user, which refuses it as the REST read does.

The window keeps a topic's events between two versions, all of them (`base` < version ≤ `upto`): a socket whose
last version is inside it gets exactly the events after that version, in order, none missed or repeated; one
outside (a client resuming from far back) reads its own. Each message's text is made once per window state and
viewer and sent as is by every socket at the same version. The window is dropped when the process's last socket
following the topic leaves it. One hub per event loop (uvicorn: one per process)."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import weakref
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import orjson

from live_room import reads, topics
from live_room.topics import SharedPage, Topic
from operations import metrics

logger = logging.getLogger(__name__)

# A topic's events kept at most (the oldest dropped first); a socket further behind reads its own.
KEEP = 2 * topics.PAGE


@dataclass
class _Window:
    base: int
    upto: int
    version: int
    events: list[Any]
    versions: list[int]
    seated: frozenset[int]
    everyone: bool = False
    closed: bool = False
    # (after, viewer, hidden authors among the page's) → (the message's text, its last version, whether the page
    # was full); cleared with each read.
    texts: dict[tuple[int, str | None, frozenset[int]], tuple[str, int, bool]] = field(default_factory=dict)


@dataclass(frozen=True)
class Message:
    """An `events` message ready to send: its text, the last version in it, and whether more may follow at once
    (a full page). An empty text: every event up to `last` was hidden from this viewer (nothing to send)."""

    text: str
    last: int
    full: bool


# Nothing after the socket's last version (a wake-up found already sent).
NOTHING = Message(text="", last=0, full=False)


class Hub:
    def __init__(self) -> None:
        self._windows: dict[str, _Window] = {}
        self._reading: dict[str, asyncio.Future[None]] = {}
        self._followers: dict[str, int] = {}
        # A chat topic → its readers' user ids here, each with its number of sockets.
        self._readers: dict[str, Counter[int]] = {}

    # -------------------------------------------------------------------------------- who follows what here

    def follow(self, name: str, user_id: int | None = None) -> None:
        self._followers[name] = self._followers.get(name, 0) + 1
        if user_id is not None:
            self._readers.setdefault(name, Counter())[user_id] += 1

    def unfollow(self, name: str, user_id: int | None = None) -> None:
        readers = self._readers.get(name)
        if readers is not None and user_id is not None:
            readers[user_id] -= 1
            if readers[user_id] <= 0:
                del readers[user_id]
        left = self._followers.get(name, 0) - 1
        if left > 0:
            self._followers[name] = left
        else:
            self._followers.pop(name, None)
            self._windows.pop(name, None)
            self._readers.pop(name, None)

    def following(self, name: str) -> int:
        return self._followers.get(name, 0)

    # ------------------------------------------------------------------------------------------- the reads

    async def message(
        self,
        topic: Topic,
        *,
        after: int,
        wanted: int,
        user_id: Any,
        viewer: str | None,
        staff: bool = False,
        hidden: frozenset[int] = frozenset(),
    ) -> Message | None:
        """The `events` message of `topic` after version `after` for this viewer, once the process has read
        the topic up to `wanted` at least; NOTHING when there is no event after `after`; None when the socket
        must read for its own user (not seated at the game's table, not a member of the chat room or its chat
        off, `after` out of the window, or the read failed: the socket's own read then answers as the REST read
        does). A chat room's messages by the `hidden` authors are left out."""
        for _attempt in range(3):
            window = self._windows.get(topic.name)
            if window is not None and window.base <= after and window.upto >= wanted:
                if topic.kind == topics.GAME and user_id not in window.seated:
                    return None
                if topic.kind == topics.CHAT and (
                    window.closed or not (staff or window.everyone or user_id in window.seated)
                ):
                    return None
                return self._render(topic, window, after, viewer, hidden)
            reading = self._reading.get(topic.name)
            if reading is None:
                start = after
                if window is not None and window.base <= after <= window.upto:
                    start = window.upto  # the window extended
                reading = asyncio.ensure_future(self._read(topic, start))
                self._reading[topic.name] = reading
            # Shielded: a socket closing while it waits does not cancel the others' read.
            try:
                await asyncio.shield(reading)
            except asyncio.CancelledError:
                raise
            except Exception:
                return None
        return None

    async def _read(self, topic: Topic, start: int) -> None:
        try:
            # A chat room's read asks which of the process's readers are its members.
            asked = (
                {"readers": sorted(self._readers.get(topic.name, ()))} if topic.kind == topics.CHAT else {}
            )
            page = await reads.read_shared(topics.shared_read, topic=topic, after=start, **asked)
            metrics.socket_read(kind="shared")
            self._merge(topic.name, start, page)
        finally:
            self._reading.pop(topic.name, None)

    def _merge(self, name: str, start: int, page: SharedPage) -> None:
        if name not in self._followers:
            return  # no socket here follows it any more
        window = self._windows.get(name)
        versions = [topics.event_version(e) for e in page.events]
        if window is not None and window.base <= start == window.upto:
            window.events += page.events
            window.versions += versions
            window.upto = page.upto
            window.version = max(window.version, page.version)
            window.seated = page.seated
            window.everyone = page.everyone
            window.closed = page.closed
            window.texts.clear()
            # The oldest events dropped beyond KEEP (a new window keeps its one read whole: the socket that
            # asked for it needs it from its start).
            extra = len(window.events) - KEEP
            if extra > 0:
                window.base = window.versions[extra - 1]
                del window.events[:extra]
                del window.versions[:extra]
        else:
            self._windows[name] = _Window(
                start,
                page.upto,
                page.version,
                list(page.events),
                versions,
                page.seated,
                everyone=page.everyone,
                closed=page.closed,
            )

    def _render(
        self, topic: Topic, window: _Window, after: int, viewer: str | None, hidden: frozenset[int]
    ) -> Message:
        left_out: frozenset[int] = frozenset()
        chosen: list[Any] | None = None
        if hidden and topic.kind == topics.CHAT:
            first = bisect.bisect_right(window.versions, after)
            chosen = window.events[first : first + topics.PAGE]
            left_out = hidden.intersection(topics.event_author(e) for e in chosen)
        key = (after, viewer if topic.kind == topics.GAME else None, left_out)
        made = window.texts.get(key)
        if made is None:
            if chosen is None:
                first = bisect.bisect_right(window.versions, after)
                chosen = window.events[first : first + topics.PAGE]
            if not chosen:
                return NOTHING
            last = topics.event_version(chosen[-1])
            shown = [e for e in chosen if topics.event_author(e) not in left_out] if left_out else chosen
            body = {
                "type": "events",
                "topic": topic.name,
                "version": window.version,
                "events": [topics.viewed(topic, e, viewer) for e in shown],
                "next_after": last,
            }
            text = orjson.dumps(body).decode() if shown else ""
            made = (text, last, len(chosen) == topics.PAGE)
            window.texts[key] = made
        return Message(text=made[0], last=made[1], full=made[2])


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def current() -> Hub:
    """The running event loop's hub (the sockets of one loop share it; another loop, e.g. a test's, has its
    own)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub()
    return hub


def forget() -> None:
    """Every hub dropped (a test's end)."""
    with contextlib.suppress(Exception):
        _hubs.clear()

"""The service's own Prometheus metrics (`ramino_*`) and the one-line calls that emit them.

Imports nothing of the project, so the ledger, live play and the tournament kinds all emit through it without an
upward import. Each call is one counter, gauge or histogram update: in a single process an addition under a lock,
in prometheus_client's multiprocess mode (PROMETHEUS_MULTIPROC_DIR, docs/operations.md) a write to the process's
memory-mapped file. Labels are bounded sets (error codes, event kinds, task names, game presets).

Gauges read from the database at scrape time (the reconciliation, tournaments late to start) are not here:
`operations.collectors`."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

# No `*_created` series beside every counter and histogram: nothing here reads them.
disable_created_metrics()  # type: ignore[no-untyped-call]

# Queue waits and run times of Celery tasks: from a few milliseconds (a move's follow-up) to minutes (a full
# reconciliation, a tournament's start).
TASK_BUCKETS = (
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
    30.0,
    60.0,
    300.0,
    float("inf"),
)

ROUNDS_SETTLED = Counter("ramino_rounds_settled", "Rounds ended and settled, by game preset.", ["game"])
MOVES_ACCEPTED = Counter(
    "ramino_moves_accepted", "Clients' moves answered as applied (a replayed key's answer counts again)."
)
MOVES_REFUSED = Counter(
    "ramino_moves_refused",
    "Clients' moves refused, by error code (a replayed refusal counts again).",
    ["code"],
)
TURN_TIMEOUTS = Counter("ramino_turn_timeouts", "Turns whose clock ran out: the server played them.")
SERVER_PLAYED_MOVES = Counter("ramino_server_played_moves", "Moves the server played for a timed-out player.")
TOURNAMENT_EVENTS = Counter("ramino_tournament_events", "Tournament events recorded, by kind.", ["kind"])
TASK_QUEUE_WAIT = Histogram(
    "ramino_celery_task_queue_wait_seconds",
    "Seconds a Celery task waited in the queue: from its publication (or its ETA) to its start on a worker.",
    ["task"],
    buckets=TASK_BUCKETS,
)
TASK_RUN = Histogram(
    "ramino_celery_task_run_seconds", "Seconds a Celery task ran on a worker.", ["task"], buckets=TASK_BUCKETS
)
TASK_FAILURES = Counter(
    "ramino_celery_task_failures", "Celery tasks that raised (retries not counted).", ["task"]
)
TASK_RETRIES = Counter(
    "ramino_celery_task_retries", "Celery tasks retried after a transient fault.", ["task"]
)
# The sum over a host's live web processes (multiprocess "livesum": a dead process's share is dropped).
LONGPOLLS_WAITING = Gauge(
    "ramino_longpolls_waiting", "Events long-polls waiting right now.", multiprocess_mode="livesum"
)

# The live room's sockets (live_room/, docs/operations.md "The socket tier").
SOCKETS_OPEN = Gauge(
    "ramino_sockets_open", "WebSockets open right now (signed in or not yet).", multiprocess_mode="livesum"
)
SOCKET_MESSAGES_SENT = Counter(
    "ramino_socket_messages_sent", "Messages the socket tier sent to clients, by type.", ["type"]
)
# The sockets' events reads: `shared` (one per topic and new version per socket process, live_room/hub.py) and
# `own` (one socket's for its own user: a subscription, a recheck, a socket outside the shared read).
SOCKET_READS = Counter(
    "ramino_socket_reads",
    "Events reads made by the socket tier, shared by a process's sockets or a socket's own.",
    ["kind"],
)
# From a topic's commit (the wake-up's publication) to its events leaving for one socket: milliseconds when
# all is well, the recheck interval when a wake-up was lost.
SOCKET_FANOUT_SECONDS = Histogram(
    "ramino_socket_fanout_seconds",
    "Seconds from a new version's commit to its events sent on one socket.",
    buckets=(
        0.001,
        0.0025,
        0.005,
        0.01,
        0.025,
        0.05,
        0.1,
        0.25,
        0.5,
        1.0,
        2.5,
        5.0,
        10.0,
        30.0,
        float("inf"),
    ),
)

_ACCEPTED = MOVES_ACCEPTED
_TIMEOUTS = TURN_TIMEOUTS
_SERVER_PLAYED = SERVER_PLAYED_MOVES


def round_settled(*, game: str) -> None:
    ROUNDS_SETTLED.labels(game).inc()


def move_accepted() -> None:
    _ACCEPTED.inc()


def move_refused(*, code: str) -> None:
    MOVES_REFUSED.labels(code).inc()


def turn_timed_out(*, server_moves: int) -> None:
    _TIMEOUTS.inc()
    if server_moves:
        _SERVER_PLAYED.inc(server_moves)


def tournament_event(*, kind: str) -> None:
    TOURNAMENT_EVENTS.labels(kind).inc()


def longpoll_started() -> None:
    LONGPOLLS_WAITING.inc()


def longpoll_ended() -> None:
    LONGPOLLS_WAITING.dec()


def socket_opened() -> None:
    SOCKETS_OPEN.inc()


def socket_closed() -> None:
    SOCKETS_OPEN.dec()


def socket_message_sent(*, kind: str) -> None:
    SOCKET_MESSAGES_SENT.labels(kind).inc()


def socket_fanout(*, seconds: float) -> None:
    SOCKET_FANOUT_SECONDS.observe(max(0.0, seconds))


def socket_read(*, kind: str) -> None:
    SOCKET_READS.labels(kind).inc()

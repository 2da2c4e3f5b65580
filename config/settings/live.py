"""The live room's settings: the socket tier (its channel layer, rechecks and address), presence, the reconnection
allowance and the socket's flood limits, read from the environment as base.py reads its own."""

from datetime import timedelta

import environ

__all__ = [
    "CHANNEL_LAYERS",
    "CHANNEL_LAYER_URL",
    "LIVE_BEAT_SCHEDULE",
    "RAMINO_PRESENCE_CHECK_SECONDS",
    "RAMINO_PRESENCE_POLL_SECONDS",
    "RAMINO_PRESENCE_SOCKET_LEASE_SECONDS",
    "RAMINO_RECONNECT_SECONDS",
    "RAMINO_SOCKET_AUTH_SECONDS",
    "RAMINO_SOCKET_DB_THREADS",
    "RAMINO_SOCKET_LAYER_CALLS",
    "RAMINO_SOCKET_LOBBY_SECONDS",
    "RAMINO_SOCKET_MAX_PER_ADDRESS",
    "RAMINO_SOCKET_MAX_PER_USER",
    "RAMINO_SOCKET_MAX_TOPICS",
    "RAMINO_SOCKET_MESSAGES_PER_SECOND",
    "RAMINO_SOCKET_RECHECK_SECONDS",
    "RAMINO_SOCKET_REJOIN_SECONDS",
    "RAMINO_SOCKET_URL",
    "redis_channel_layer",
]

env = environ.Env()

# The live room's sockets (live_room/, docs/operations.md "The socket tier"). The channel layer that wakes them
# when a topic has a new version: Redis wherever writers and socket processes are apart (CHANNEL_LAYER_URL,
# e.g. redis://redis:6379/2), else in memory (the embedded default: only the socket process's own writes wake
# at once, the rest are read by the recheck, every second there).
CHANNEL_LAYER_URL = env("CHANNEL_LAYER_URL", default="")


def redis_channel_layer(url: str) -> dict[str, object]:
    """The channel layer on the Redis at `url`. redis-py's read timeout (5 s by default) set above the layer's
    blocking receive (5 s): at 5 s, each idle receive raised as Redis answered and closed a socket. Its pool's
    100 connections raised at once beyond, closing the sockets of a rush of sign-ins (1,000 at once)."""
    host = {"address": url, "socket_timeout": 15, "max_connections": 1000}
    config = {"hosts": [host], "prefix": "ramino:socket", "capacity": 500}
    # Its receive waits out Redis's hiccups instead of closing the socket (live_room/layer.py).
    return {"BACKEND": "live_room.layer.PatientRedisChannelLayer", "CONFIG": {**config, "expiry": 30}}


CHANNEL_LAYERS: dict[str, dict[str, object]] = {
    "default": redis_channel_layer(CHANNEL_LAYER_URL)
    if CHANNEL_LAYER_URL
    else {"BACKEND": "channels.layers.InMemoryChannelLayer"}
}
# Each socket reads its topics again this often even without a wake-up (a lost one costs at most this delay).
RAMINO_SOCKET_RECHECK_SECONDS = env.float(
    "RAMINO_SOCKET_RECHECK_SECONDS", default=30.0 if CHANNEL_LAYER_URL else 1.0
)
# A socket joins its topics' channel-layer groups again this often (at a recheck): the layer forgets a membership
# after its group expiry (a day). And a socket process makes at most this many channel-layer calls (joins,
# leaves) at once, well under the Redis layer's pool (1,000 connections): a burst waits instead of failing
# (live_room/layer.py).
RAMINO_SOCKET_REJOIN_SECONDS = env.float("RAMINO_SOCKET_REJOIN_SECONDS", default=3600.0)
RAMINO_SOCKET_LAYER_CALLS = env.int("RAMINO_SOCKET_LAYER_CALLS", default=100)
# A socket that has not signed in (its first message, `auth`) this many seconds after opening is closed.
RAMINO_SOCKET_AUTH_SECONDS = env.float("RAMINO_SOCKET_AUTH_SECONDS", default=10.0)
# Topics one socket may follow at once; how often a socket on the lobby reads the lobby's digest.
RAMINO_SOCKET_MAX_TOPICS = env.int("RAMINO_SOCKET_MAX_TOPICS", default=20)
RAMINO_SOCKET_LOBBY_SECONDS = env.float("RAMINO_SOCKET_LOBBY_SECONDS", default=2.0)
# The threads a socket process reads the database with, each with its connection (live_room/reads.py).
RAMINO_SOCKET_DB_THREADS = env.int("RAMINO_SOCKET_DB_THREADS", default=4)
# Where the player client opens its socket: empty, this site's `/ws/v1/` (a proxy routes /ws/ to the socket
# service); else a full ws:// or wss:// address (also allowed by the Content-Security-Policy's connect-src).
RAMINO_SOCKET_URL = env("RAMINO_SOCKET_URL", default="")

# Presence and the reconnection allowance (docs/rules.md "Presence and reconnection", docs/operations.md
# "Presence"): a table's `reconnect_seconds` when it names none; a socket's lease on a game it follows (renewed a
# third of it before it runs out); a long-poll counts as connected this long after it was made; how often a
# socket reads the presence of its games again (changes made by other processes on the in-memory layer).
RAMINO_RECONNECT_SECONDS = env.int("RAMINO_RECONNECT_SECONDS", default=60)
RAMINO_PRESENCE_SOCKET_LEASE_SECONDS = env.float("RAMINO_PRESENCE_SOCKET_LEASE_SECONDS", default=60.0)
RAMINO_PRESENCE_POLL_SECONDS = env.float("RAMINO_PRESENCE_POLL_SECONDS", default=30.0)
RAMINO_PRESENCE_CHECK_SECONDS = env.float(
    "RAMINO_PRESENCE_CHECK_SECONDS", default=15.0 if CHANNEL_LAYER_URL else 2.0
)
# Socket flood limits (docs/api.md "Live socket", "Limits"): open sockets per player and per client address
# (beyond them a new socket is closed with 4429 and `socket.too_many`), and messages a socket may send per
# second (a burst of twice as many; over it the socket is closed with 4429 and `socket.flood`).
RAMINO_SOCKET_MAX_PER_USER = env.int("RAMINO_SOCKET_MAX_PER_USER", default=5)
RAMINO_SOCKET_MAX_PER_ADDRESS = env.int("RAMINO_SOCKET_MAX_PER_ADDRESS", default=50)
RAMINO_SOCKET_MESSAGES_PER_SECOND = env.float("RAMINO_SOCKET_MESSAGES_PER_SECOND", default=10.0)
# The live room's periodic jobs, added to CELERY_BEAT_SCHEDULE by base.py.
LIVE_BEAT_SCHEDULE = {
    "tournaments: forget old presence": {
        "task": "tournaments.forget_presence",
        "schedule": timedelta(hours=1),
        "description": "Delete the presence leases that ran out over a day ago (players who never came back).",
    },
}

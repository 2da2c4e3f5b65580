"""Gunicorn settings for the web container, all overridable from the environment.

Requests are short (a move, a ledger read) apart from the events long-poll; the slow work runs in Celery.
Scale by adding web containers rather than raising the worker count far.
"""

import json
import multiprocessing
import os

from gunicorn import util

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
# 2 x cores + 1 processes, capped, each with a few threads: the events endpoint long-polls (up to
# RAMINO_EVENTS_MAX_WAIT_SECONDS), which would pin a sync worker for the whole wait. Every thread may hold a
# database connection (CONN_MAX_AGE), so workers x threads per container must fit PostgreSQL's
# max_connections together with the other containers.
workers = int(os.environ.get("GUNICORN_WORKERS", str(min(2 * multiprocessing.cpu_count() + 1, 5))))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread" if threads > 1 else "sync"
# (The Django settings read GUNICORN_THREADS too: at most threads - 1 long-polls of a process wait at once, so
# one thread is always free for moves; with one thread a long-poll never waits. tournaments/live/messaging/wakeups.py)
# Longer than the longest long-poll, so that a waiting request is never taken for a stuck worker.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "5"))
# Recycle workers now and then so that a slow leak cannot grow without bound; jitter avoids all at once.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "2000"))
max_requests_jitter = int(os.environ.get("GUNICORN_MAX_REQUESTS_JITTER", "200"))
# Logs go to stdout/stderr, where the container runtime collects them.
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
# e.g. "%(m)s %(U)s %(s)s %(B)s %(D)s" logs each request's server time in microseconds (latency analysis).
if "GUNICORN_ACCESS_LOG_FORMAT" in os.environ:
    access_log_format = os.environ["GUNICORN_ACCESS_LOG_FORMAT"]
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# Peers whose X-Forwarded-Proto (and other forwarding headers) gunicorn believes: the reverse proxy's
# address or network (e.g. 172.18.0.0/16), never "*" where clients can reach gunicorn directly. The default,
# gunicorn's own, trusts only this host. Django's NUM_PROXIES is the other half (docs/operations.md).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
# /dev/shm avoids heartbeat stalls when the container's /tmp is on a slow overlay filesystem.
worker_tmp_dir = "/dev/shm"
# Recent gunicorn opens a control socket under $HOME, which the image's unprivileged user cannot write;
# nothing here uses it. Setting GUNICORN_CONTROL_SOCKET to a writable path turns it on.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "/tmp/gunicorn.ctl")
control_socket_disable = "GUNICORN_CONTROL_SOCKET" not in os.environ

# Request limits: gunicorn's ceilings sit above Django's (api/boundary.py: a URI over 4096 characters is
# 414, a header over 8192 is 431, both in the API's JSON envelope), so that Django answers them. The request line
# is at gunicorn's own maximum (8190); a header field may be 32 KiB; at most 100 headers.
limit_request_line = 8190
limit_request_field_size = 32768
limit_request_fields = 100

# What gunicorn still answers itself (past those ceilings, a malformed request, a crash outside Django) it
# writes with `util.write_error`, as HTML; every answer of the service is the API's envelope instead
# (docs/api.md, "Limits of a request"). Patched here, in the master, before the workers fork.
_GUNICORN_CODES = {
    403: "auth.forbidden",
    414: "request.uri_too_long",
    417: "request.malformed",
    431: "request.headers_too_large",
    501: "request.malformed",
}


def _write_json_error(sock: object, status_int: int, reason: str, mesg: str) -> None:
    code = _GUNICORN_CODES.get(status_int, "server.error" if status_int >= 500 else "request.malformed")
    body = json.dumps({"error": {"code": code, "message": reason + ".", "details": {}}}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


util.write_error = _write_json_error


# prometheus_client's multiprocess mode (PROMETHEUS_MULTIPROC_DIR, docs/operations.md "Metrics"): a worker that
# exits takes its share of the live gauges (long-polls waiting) with it; its counters stay in the sums.
def child_exit(server: object, worker: object) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[attr-defined,no-untyped-call]
